/** The account pages' rules, pure and browser-safe (the data page imports them without zod). */

/** What the person types to confirm, exactly. */
export const DELETE_CONFIRMATION_WORD = "DELETE";

/** Whom a deletion leaves the couple's profile with: no couple yet, none (the only partner), or the partner. */
export type CoupleOnDeletion = "none" | "alone" | "with-partner";
