export * from "./catalogue";
export { ensureInterestCatalogue, interestsByCategory, listInterests } from "./service";
