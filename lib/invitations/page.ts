import "server-only";
import { getDb } from "@/db/client";
import { AppError, type ErrorCode } from "@/lib/errors";
import { loadInvitation, type InvitationView } from "./lookup";

export type InvitationForPage = { ok: true; invitation: InvitationView } | { ok: false; code: ErrorCode; message: string };

/** The join pages' look-up: an open invitation, or why the link cannot be used (unexpected errors go to the error boundary). */
export async function invitationForPage(token: string, context: { clientAddress: string }): Promise<InvitationForPage> {
  try {
    return { ok: true, invitation: await loadInvitation(await getDb(), token, context) };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}
