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

export function clearRegistrationProgress(): void {
  for (const key of REGISTRATION_SESSION_KEYS) sessionStorage.removeItem(key);
  for (const key of Object.keys(sessionStorage)) {
    if (key.startsWith("registrationLocation") || key.startsWith("onboardingLocation") || key.endsWith(":register")) sessionStorage.removeItem(key);
  }
}
