export { normalizeLocation, setPrivacy, getLocation, deleteLocation } from "./service";
export { nearby } from "./nearby";
export { searchPlaces } from "./search";
export * from "./schemas";
export { parseLocationInput } from "./parse";
