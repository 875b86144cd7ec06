import "server-only";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import { normalizeEmail } from "@/lib/auth/rules";
import { AppError, type ErrorCode } from "@/lib/errors";
import { loadInvitation, type InvitationView } from "./lookup";

export type InvitationForPage =
  { ok: true; invitation: InvitationView; signedInAsInvitee: boolean } | { ok: false; code: ErrorCode; message: string };

/**
 * The join pages' look-up: an open invitation, and whether the signed-in account (if any) is the
 * invited address, which then joins as it is; or why the link cannot be used (unexpected errors
 * go to the error boundary).
 */
export async function invitationForPage(
  token: string,
  context: { clientAddress: string; userId: string | null },
): Promise<InvitationForPage> {
  const db = await getDb();
  let invitation: InvitationView;
  try {
    invitation = await loadInvitation(db, token, context);
  } catch (error) {
    if (error instanceof AppError) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
  if (!context.userId) return { ok: true, invitation, signedInAsInvitee: false };
  const [account] = await db.select({ email: users.email }).from(users).where(eq(users.id, context.userId));
  return { ok: true, invitation, signedInAsInvitee: account !== undefined && normalizeEmail(account.email) === invitation.partner_email };
}
