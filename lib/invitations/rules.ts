/**
 * The invitation rules (spec sections 3, 5 and 8): messages, the link and its lifetime, who
 * invited. Pure and browser-safe, with no zod: the forms show them on first paint, and
 * lib/invitations/schemas.ts, which builds the schemas from them, is loaded only to validate.
 */
import { normalizeEmail } from "@/lib/auth/rules";

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
  loadFailed: "Failed to load invitation details. Please check the invitation link.",
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

export const isSelfInvitation = (ownEmail: string, partnerEmail: string): boolean =>
  normalizeEmail(ownEmail) === normalizeEmail(partnerEmail);

export const expiryFrom = (now: Date): Date => new Date(now.getTime() + INVITATION_VALID_DAYS * 24 * 60 * 60 * 1000);

export type InviterNameSource = {
  inviter_first_name?: string | null;
  partner1_first_name?: string | null;
  inviter_name?: string | null;
  couple_name?: string | null;
};

/**
 * Who invited the partner, as the join screen names them (spec section 3): the first of
 * inviter_first_name, partner1_first_name, inviter_name, or the first half of couple_name split
 * on ' & ', else 'Your Partner'.
 */
export function inviterName(invitation: InviterNameSource): string {
  const candidates = [
    invitation.inviter_first_name,
    invitation.partner1_first_name,
    invitation.inviter_name,
    invitation.couple_name?.split(" & ")[0],
  ];
  return candidates.map((value) => value?.trim()).find((value) => value) ?? "Your Partner";
}
