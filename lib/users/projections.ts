/**
 * The user columns each reader may see, named once. Every select of a person's row goes through
 * one of these, so a new field is one edit here and a private column (password hash, exact
 * coordinates, registration type) cannot leak by a forgotten entry in a list elsewhere.
 * Each takes `users` or an alias of it (a partner joined in).
 */
import type { Column } from "drizzle-orm";
import type { users } from "@/db/schema";

type User = typeof users.$inferSelect;
type UserField = keyof User;

/** What anyone allowed to see a couple sees of its partners: first name and age. The birth date is read only to compute the age. */
const PUBLIC_PERSON = ["id", "firstName", "dateOfBirth", "occupation", "avatarUrl"] as const satisfies readonly UserField[];
/** The details a person gives about themselves (registration, partner setup). */
const DETAILS = ["firstName", "lastName", "dateOfBirth", "occupation", "avatarUrl"] as const satisfies readonly UserField[];
/** The account as the registration answers show it. */
const ACCOUNT = ["id", "email", ...DETAILS] as const satisfies readonly UserField[];
/** What a partner sees of the other: never their e-mail or sign-in state; the place as text, never its coordinates. */
const PARTNER = [
  ...PUBLIC_PERSON,
  "lastName",
  "interests",
  "location",
  "placeId",
  "city",
  "state",
  "country",
  "countryCode",
] as const satisfies readonly UserField[];
/** What the route guard derives a person's flags from (lib/auth/users.ts flagsOf), read by every complete-profile call. */
const FLAG_SOURCES = ["id", "emailVerifiedAt", "firstName", "lastName", "occupation"] as const satisfies readonly UserField[];
/** What a person sees of themselves: all but secrets and exact coordinates. */
const SELF = [...PARTNER, "email", "emailVerifiedAt", "bio"] as const satisfies readonly UserField[];

/** The columns named by `fields`, taken from `table` (users or an alias of it). */
const projection =
  <F extends UserField>(fields: readonly F[]) =>
  <T extends Record<F, Column>>(table: T): Pick<T, F> =>
    Object.fromEntries(fields.map((field) => [field, table[field]])) as Pick<T, F>;

export const publicPersonColumns = projection(PUBLIC_PERSON);
export const detailsColumns = projection(DETAILS);
export const accountColumns = projection(ACCOUNT);
export const partnerColumns = projection(PARTNER);
export const selfColumns = projection(SELF);
export const flagSourceColumns = projection(FLAG_SOURCES);

/** A projected row as a left join gives it: every column may be null (no such person). */
type Nullable<F extends UserField> = { [K in F]: User[K] | null };
export type PublicPersonRow = Nullable<(typeof PUBLIC_PERSON)[number]>;
export type PartnerRow = Nullable<(typeof PARTNER)[number]>;
export type SelfRow = Nullable<(typeof SELF)[number]>;
