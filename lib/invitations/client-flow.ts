import { BYPASS_PROFILE_CHECK_KEY, REGISTRATION_COMPLETED_KEY } from "@/lib/registration/client-storage";

/**
 * The browser storage keys the registration flow sets (spec section 3, storage keys). The route
 * guard runs on the server and reads the session cookie; these flags only tell the client side
 * of the flow that registration is over.
 */

/** Registration is complete: the flow guard lets the user through to the dashboard. */
export function markRegistrationComplete(): void {
  sessionStorage.setItem(REGISTRATION_COMPLETED_KEY, "true");
  sessionStorage.setItem(BYPASS_PROFILE_CHECK_KEY, "true");
}

/** Partner B has just joined: the account and couple ids are kept, as after any sign-in. */
export function rememberAccount(ids: { userId: string; coupleId: string }): void {
  localStorage.setItem("user_id", ids.userId);
  localStorage.setItem("couple_id", ids.coupleId);
  sessionStorage.setItem(BYPASS_PROFILE_CHECK_KEY, "true");
}
