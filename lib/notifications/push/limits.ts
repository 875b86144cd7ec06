/** The bounds of a person's push devices (browser-safe: the settings page shows them). */

/** Devices a person may have at once. */
export const MAX_DEVICES = 10;

/** Longest endpoint accepted (real ones are under 600 characters). */
export const ENDPOINT_MAX = 1024;
