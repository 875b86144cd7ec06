/** The account pages' rules, pure and browser-safe (the data page imports them without zod). */

/** What the person types to confirm, exactly. */
export const DELETE_CONFIRMATION_WORD = "DELETE";
