import "server-only";
import { eq, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { couples, invitations, users } from "@/db/schema";
import { hashToken } from "@/lib/auth/secrets";
import { AppError } from "@/lib/errors";
import { LIMITS, checkLimit, recordHit, type LimitState } from "@/lib/rate-limit";
import { TOKEN_MAX } from "@/lib/auth/rules";
import { inviterName, MESSAGES } from "./rules";

export const invalidInvitation = () => new AppError("INVALID_INVITATION", MESSAGES.invalid);
/** Too many look-ups or accepts from one address. */
export const tooManyAttempts = (limit: LimitState) =>
  new AppError("RATE_LIMITED", MESSAGES.tooManyAttempts, { retryAfterSeconds: limit.retryAfterSeconds });

/** The couple's partner 2, to tell a claim made through the shareable link from a real join. */
const partner2 = alias(users, "partner2");

const columns = {
  id: invitations.id,
  coupleId: invitations.coupleId,
  inviterId: invitations.inviterId,
  partnerEmail: invitations.partnerEmail,
  partnerFirstName: invitations.partnerFirstName,
  partnerLastName: invitations.partnerLastName,
  expiresAt: invitations.expiresAt,
  acceptedAt: invitations.acceptedAt,
  revokedAt: invitations.revokedAt,
  coupleName: couples.coupleName,
  coupleStatus: couples.status,
  partner1Id: couples.partner1Id,
  partner2Id: couples.partner2Id,
  inviterFirstName: users.firstName,
  inviterLastName: users.lastName,
  partner2Email: partner2.email,
  partner2VerifiedAt: partner2.emailVerifiedAt,
};

/**
 * An invitation with what the join needs of its couple and its inviter. `provesAddress`: the
 * token used is the e-mailed one, so whoever holds it reads the invited address's mail.
 */
export type InvitationRow = Pick<
  typeof invitations.$inferSelect,
  "id" | "coupleId" | "inviterId" | "partnerEmail" | "partnerFirstName" | "partnerLastName" | "expiresAt" | "acceptedAt" | "revokedAt"
> & {
  coupleName: string;
  coupleStatus: string;
  partner1Id: string;
  partner2Id: string | null;
  inviterFirstName: string;
  inviterLastName: string;
  partner2Email: string | null;
  partner2VerifiedAt: Date | null;
  provesAddress: boolean;
};

/**
 * The invitation a token stands for: either of its two secrets, the e-mailed one or the
 * shareable one partner A was shown. Only the token's digest is compared, so a tampered,
 * unknown or truncated token simply finds nothing. `lock` holds the invitation row until the
 * transaction ends, so two uses of one link (or of its two links) run one after the other.
 */
export async function invitationByToken(db: Db, token: string, { lock = false } = {}): Promise<InvitationRow | null> {
  if (token.length > TOKEN_MAX) return null;
  const digest = hashToken(token);
  const query = db
    .select({ ...columns, provesAddress: sql<boolean>`${invitations.tokenHash} = ${digest}` })
    .from(invitations)
    .innerJoin(couples, eq(couples.id, invitations.coupleId))
    .innerJoin(users, eq(users.id, invitations.inviterId))
    .leftJoin(partner2, eq(partner2.id, couples.partner2Id))
    .where(or(eq(invitations.tokenHash, digest), eq(invitations.shareTokenHash, digest)));
  const [row] = lock ? await query.for("update", { of: invitations }) : await query;
  return row ?? null;
}

/**
 * The e-mailed link, used after the invitation went to an unverified account at the invited
 * address (made through the shareable link, or registered on its own): that account never proved
 * the address, so the e-mailed link still lets the real partner B in and replaces it.
 */
export const claimedThroughShareLink = (row: InvitationRow): boolean =>
  row.provesAddress && row.partner2Id !== null && row.partner2VerifiedAt === null && row.partner2Email === row.partnerEmail;

/**
 * Unknown and used links are invalid; a link of a couple that filled up meanwhile can no longer
 * be used; a link replaced by a newer one is invalid; an old one has expired. A suspended or banned
 * couple's links are invalid too (its partners are signed out; nobody joins it meanwhile), and
 * work again if the action is lifted in time.
 */
export function assertOpen(row: InvitationRow | null, now = new Date()): asserts row is InvitationRow {
  if (!row) throw invalidInvitation();
  const reclaim = claimedThroughShareLink(row);
  if (row.acceptedAt && !reclaim) throw invalidInvitation();
  if (row.partner2Id && !reclaim) throw new AppError("COUPLE_FULL", MESSAGES.joinCoupleFull);
  if (row.revokedAt || row.coupleStatus !== "active") throw invalidInvitation();
  if (row.expiresAt.getTime() <= now.getTime()) throw new AppError("INVITATION_EXPIRED", MESSAGES.expired);
}

export type InvitationView = {
  partner_email: string;
  partner_first_name: string;
  partner_last_name: string;
  inviter_first_name: string;
  inviter_name: string;
  couple_name: string;
  expires_at: string;
};

/**
 * What the join screen shows about an open invitation (GET /api/auth/invitations/{token}).
 * Public, so failed look-ups count against the caller's address: tokens cannot be guessed
 * at any useful rate (and at 256 bits not at all).
 */
export async function loadInvitation(db: Db, token: string, context: { clientAddress: string }): Promise<InvitationView> {
  const limit = await checkLimit(db, LIMITS.invitationLookupFailuresPerAddress, context.clientAddress);
  if (!limit.allowed) throw tooManyAttempts(limit);
  try {
    const row = await invitationByToken(db, token);
    assertOpen(row);
    return {
      partner_email: row.partnerEmail,
      partner_first_name: row.partnerFirstName,
      partner_last_name: row.partnerLastName,
      inviter_first_name: inviterName({ inviter_first_name: row.inviterFirstName, couple_name: row.coupleName }),
      inviter_name: `${row.inviterFirstName} ${row.inviterLastName}`,
      couple_name: row.coupleName,
      expires_at: row.expiresAt.toISOString(),
    };
  } catch (error) {
    if (error instanceof AppError) await recordHit(db, LIMITS.invitationLookupFailuresPerAddress, context.clientAddress);
    throw error;
  }
}
