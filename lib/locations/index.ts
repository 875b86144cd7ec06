export { canWrite, assertCanWrite, type Actor } from "./access";
export { locationColumns, resolvePlace, saveEntityLocation, savedPlace, type PlaceColumns, type ResolvedPlace } from "./place";
export { normalizeLocation, setPrivacy, getLocation, deleteLocation } from "./locations";
export { nearby, type NearbyEntry } from "./nearby";
export { searchPlaces } from "./search";
export * from "./privacy";
export * from "./schemas";
export { parseLocationInput } from "./parse";
