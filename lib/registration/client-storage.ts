/** Browser storage keys of the registration flow (spec section 3), cleared when registration starts over. */
export const REGISTRATION_SESSION_KEYS = [
  "registration_flow_state",
  "registration_completed",
  "registration_in_progress",
  "registration_step",
  "force_step_1",
  "onboarding_complete",
  "bypass_profile_check",
] as const;

export function clearRegistrationProgress(): void {
  for (const key of REGISTRATION_SESSION_KEYS) sessionStorage.removeItem(key);
  for (const key of Object.keys(sessionStorage)) {
    if (key.startsWith("registrationLocation") || key.startsWith("onboardingLocation") || key.endsWith(":register")) sessionStorage.removeItem(key);
  }
}
