import { z } from "zod";

/** DELETE /api/account: the password (the typed DELETE is the page's own guard). */
export const deleteAccountSchema = z.object({
  password: z.string({ error: "Please enter your password" }).min(1, "Please enter your password").max(1024, "Please enter your password"),
});
