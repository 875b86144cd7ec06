/** The bounds of a person's push devices (browser-safe: the settings page shows them). */

/** Devices a person may have at once. */
export const MAX_DEVICES = 10;

/** Longest endpoint accepted (real ones are under 600 characters). */
export const ENDPOINT_MAX = 1024;

/** Turning a device on (each costs a look-up of the push service's name): plenty for re-subscribing browsers, not for probing. */
export const SUBSCRIBE_LIMIT = {
  bucket: "push-subscribe:user",
  limit: 30,
  windowSeconds: 60 * 60,
  message: "Too many attempts to turn notifications on. Please try again later.",
} as const;

/** 'Show message previews', the prompt answered and a device removed, together: a handful a visit to the settings; 60 an hour bounds a loop. */
export const PUSH_SETTINGS_LIMIT = { bucket: "push-settings:user", limit: 60, windowSeconds: 60 * 60 } as const;
