/** The account pages' zod-free rules (the browser's data page imports them without zod). */

/** What the person types to confirm, exactly. */
export const DELETE_CONFIRMATION_WORD = "DELETE";
