export { discoverSuggestions, dismissSuggestion, type DiscoverSuggestion } from "./queries";
export { DISCOVER_LIMIT, DISMISS_DAYS, rankSuggestions, scoreCouple } from "./rules";
