import "client-only";

/** Session storage flag: registration is over, the flow guard lets the user through to the dashboard. */
export const REGISTRATION_COMPLETED_KEY = "registration_completed";
/** Session storage flag the spec's flow guard reads to let a user past the profile check once. */
export const BYPASS_PROFILE_CHECK_KEY = "bypass_profile_check";

/** Browser storage keys of the registration flow (spec section 3), cleared when registration starts over. */
export const REGISTRATION_SESSION_KEYS = [
  "registration_flow_state",
  REGISTRATION_COMPLETED_KEY,
  "registration_in_progress",
  "registration_step",
  "force_step_1",
  "onboarding_complete",
  BYPASS_PROFILE_CHECK_KEY,
] as const;

type StorageName = "sessionStorage" | "localStorage";

/** The browser's storage, or null on the server or where privacy settings refuse even reading it. */
export function browserStore(name: StorageName = "sessionStorage"): Storage | null {
  try {
    return typeof window === "undefined" ? null : window[name];
  } catch {
    return null;
  }
}

export const sessionStore = (): Storage | null => browserStore("sessionStorage");

/**
 * Runs storage writes best-effort: a browser that refuses them (private modes, full quota) must
 * not stop a flow whose server side already succeeded. These flags only spare client-side checks.
 */
function bestEffort(name: StorageName, write: (storage: Storage) => void): void {
  const storage = browserStore(name);
  if (!storage) return;
  try {
    write(storage);
  } catch (error) {
    console.warn(`[registration] ${name} refused a write`, error);
  }
}

/** Registration is complete: the flow guard lets the user through to the dashboard. */
export function markRegistrationComplete(): void {
  bestEffort("sessionStorage", (storage) => {
    storage.setItem(REGISTRATION_COMPLETED_KEY, "true");
    storage.setItem(BYPASS_PROFILE_CHECK_KEY, "true");
  });
}

/** Partner B has just joined: the account and couple ids are kept, as after any sign-in. */
export function rememberAccount(ids: { userId: string; coupleId: string }): void {
  bestEffort("localStorage", (storage) => {
    storage.setItem("user_id", ids.userId);
    storage.setItem("couple_id", ids.coupleId);
  });
  bestEffort("sessionStorage", (storage) => storage.setItem(BYPASS_PROFILE_CHECK_KEY, "true"));
}

export function clearRegistrationProgress(): void {
  bestEffort("sessionStorage", (storage) => {
    for (const key of REGISTRATION_SESSION_KEYS) storage.removeItem(key);
    const keys = Array.from({ length: storage.length }, (_, index) => storage.key(index) ?? "");
    for (const key of keys) {
      if (key.startsWith("registrationLocation") || key.startsWith("onboardingLocation") || key.endsWith(":register"))
        storage.removeItem(key);
    }
  });
}
