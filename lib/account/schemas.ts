import { z } from "zod";
import { DELETE_CONFIRMATION_WORD } from "./rules";

const ENTER_PASSWORD = "Please enter your password";

/** DELETE /api/account: the password (the typed DELETE is the page's own guard). */
export const deleteAccountSchema = z.object({
  password: z.string({ error: ENTER_PASSWORD }).min(1, ENTER_PASSWORD).max(1024, ENTER_PASSWORD),
});

/** The 'Delete my account' form: the call's password, and the confirmation word typed exactly. */
export const deleteAccountFormSchema = deleteAccountSchema.extend({
  typed: z.string().refine((typed) => typed === DELETE_CONFIRMATION_WORD, `Please type ${DELETE_CONFIRMATION_WORD} to confirm`),
});
