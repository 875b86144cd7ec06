/**
 * The identity rules: limits, messages, password strength, dates of birth. Pure and browser-safe,
 * with no zod, so the forms' first paint ships none (lib/auth/schemas.ts builds the schemas from
 * them).
 */

/** Secret tokens (e-mail links, invitations) are 43 characters (256 bits, base64url); the cap only bounds what a request may carry. */
export const TOKEN_MAX = 200;

export const MIN_AGE = 18;
export const PASSWORD_MIN = 8;
export const RESET_PASSWORD_MIN = 6;
/** Long passphrases are welcome; the cap only keeps hashing cost bounded. */
export const PASSWORD_MAX = 256;
export const NAME_MAX = 50;
export const SPECIAL_CHARACTERS = `!@#$%^&*(),.?":{}|<>`;

const SPECIAL = /[!@#$%^&*(),.?":{}|<>]/;

/** E-mail addresses are compared lower-cased and trimmed, everywhere. */
/** An address in its one spelling: trimmed, NFC (an accent typed either way is one address), lower case. */
export const normalizeEmail = (email: string): string => email.trim().normalize("NFC").toLowerCase();

/** The longest address SMTP carries (RFC 5321's path limit less its brackets). */
export const EMAIL_MAX = 254;

export const EMAIL_INVALID_MESSAGE = "Please enter a valid email address";

/** A sign-in refused for its e-mail or password, never saying which (spec section 8). */
export const INVALID_CREDENTIALS_MESSAGE = "Invalid email or password. Please try again.";

export const PASSWORD_REQUIREMENTS = [
  { test: (p: string) => p.length >= PASSWORD_MIN, message: `Password must be at least ${PASSWORD_MIN} characters` },
  { test: (p: string) => /[A-Z]/.test(p), message: "Password must contain at least one uppercase letter" },
  { test: (p: string) => /[a-z]/.test(p), message: "Password must contain at least one lowercase letter" },
  { test: (p: string) => /\d/.test(p), message: "Password must contain at least one number" },
  { test: (p: string) => SPECIAL.test(p), message: "Password must contain at least one special character" },
] as const;

export type PasswordStrength = "Strong" | "Weak" | "Too Short";

export function passwordStrength(password: string): PasswordStrength {
  if (password.length < PASSWORD_MIN) return "Too Short";
  return PASSWORD_REQUIREMENTS.every((rule) => rule.test(password)) ? "Strong" : "Weak";
}

/** Today as YYYY-MM-DD in UTC. */
export const todayIso = (now = new Date()): string => now.toISOString().slice(0, 10);

/**
 * Today where the day begins first (UTC+14): the day a birthday is checked against. Someone
 * becomes 18 on their birthday wherever they are, so a date of birth is measured against the
 * newest date on Earth, never refused on the birthday itself east of UTC.
 */
export const birthdayToday = (now = new Date()): string => todayIso(new Date(now.getTime() + 14 * 3_600_000));

/** The latest birth date of someone who is an adult today (the date picker's max). */
export function latestAdultBirthDate(today = birthdayToday()): string {
  const [y, m, d] = today.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y - MIN_AGE, m - 1, d));
  // 29 February minus 18 years lands on 1 March: step back to the last day of February.
  if (date.getUTCMonth() !== m - 1) date.setUTCDate(0);
  return date.toISOString().slice(0, 10);
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function isRealDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export const isAdult = (dateOfBirth: string, today = birthdayToday()): boolean =>
  isRealDate(dateOfBirth) && dateOfBirth <= latestAdultBirthDate(today) && dateOfBirth >= "1900-01-01";

/** Whole years between a birth date and today. */
export function ageOn(dateOfBirth: string, today = todayIso()): number {
  const [by, bm, bd] = dateOfBirth.split("-").map(Number) as [number, number, number];
  const [ty, tm, td] = today.split("-").map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}
