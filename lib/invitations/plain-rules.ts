/**
 * The invitation rules that need no zod (spec sections 3, 5 and 8): messages, the link and its
 * lifetime. The forms show them on first paint; lib/invitations/rules.ts (which re-exports them)
 * is loaded only to validate.
 */

/** An invitation link works for this long (spec section 9). */
export const INVITATION_VALID_DAYS = 7;

export const MESSAGES = {
  partnerFirstNameRequired: "Please enter your partner's first name",
  partnerLastNameRequired: "Please enter your partner's last name",
  selfInvitation: "You cannot invite yourself. Please enter your partner's email.",
  emailExists: "This email is already registered. Your partner should sign in instead.",
  alreadySent: "An invitation has already been sent to this email.",
  sendFailed: "Failed to send invitation",
  noCouple: "Please create your couple profile before inviting your partner.",
  coupleFull: "Your couple already has two partners.",
  notInviter: "Only the partner who created the couple can invite.",
  invalid: "This invitation is invalid or has expired. Please request a new one.",
  expired: "This invitation has expired. Please ask your partner to send a new one.",
  joinCoupleFull: "This couple already has two partners, so the invitation can no longer be used.",
  otherAddress: "This invitation was sent to a different email address.",
  acceptFailed: "Registration failed",
  setupFailed: "Failed to complete setup",
  photoFailed: "Failed to process image",
  tooManyAttempts: "Too many attempts. Please try again later.",
} as const;

/** The shareable link partner A is shown, on the page's origin (the e-mail builds its own from APP_URL). */
export const invitationLink = (origin: string, token: string): string => `${origin}/register?${new URLSearchParams({ invite: token })}`;
