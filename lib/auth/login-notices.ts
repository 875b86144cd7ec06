/**
 * The notices /login shows from its `message` parameter. Only these: a link must not be able
 * to make our page say whatever its author wants (phishing).
 */
export const EMAIL_VERIFIED_NOTICE = "Email verified successfully! You can now log in.";
export const PASSWORD_UPDATED_NOTICE = "Password updated successfully. Please sign in with your new password.";
export const ACCOUNT_DELETED_NOTICE = "Your account was deleted.";

export const LOGIN_NOTICES = [
  EMAIL_VERIFIED_NOTICE,
  PASSWORD_UPDATED_NOTICE,
  ACCOUNT_DELETED_NOTICE,
  "Please verify your email before signing in. Check your inbox for the verification link.",
  "Registration successful! Please login to complete your profile setup.",
] as const;

export const loginNotice = (message: unknown): string | null => LOGIN_NOTICES.find((notice) => notice === message) ?? null;
