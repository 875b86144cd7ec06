/**
 * The Drizzle schema, one file per area; `@/db/schema` (and drizzle.config.ts) read it all from here.
 * A new area (forum, messages) adds its file and one line below.
 */
export * from "./identity";
export * from "./couples";
export * from "./locations";
export * from "./interests";
export * from "./notifications";
export * from "./mail";
export * from "./rate-limit";
export * from "./forum";
export * from "./forum-top";
export * from "./settings";
export * from "./discover";
export * from "./directory";
export * from "./events";
export * from "./live";
export * from "./images";
export * from "./messages";
export * from "./moderation";
export * from "./push";
export * from "./plans";
export * from "./verification";
