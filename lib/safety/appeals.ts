import "server-only";
import { and, asc, count, desc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { transaction } from "@/db/transaction";
import { couples, coupleSanctions, moderationAppeals, users } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { holdPersonRow } from "@/lib/users/presence";
import { cursorAfter, readCursor, rowsAfter } from "@/lib/pagination/cursor";
import { keysetPage, type KeysetPage } from "@/lib/pagination/page";
import { recordModeration } from "./moderation-log";
import { assertMayActOn, mayDecideFor, type Moderator } from "./moderators";
import { standingNow } from "./notices";
import { announceSanction, type SafetyReactions } from "./reactions";
import { APPEALS_PAGE_SIZE, SUSPENDING_KINDS, type SanctionKind } from "./rules";
import { liftLocked, lockedCouple } from "./sanctions";

/**
 * Appeals: a couple appeals each action once, while it stands (1-1,000 characters, by either
 * partner); the appeal waits in the queue, and is decided by a moderator who did not act when the
 * team has two or more. Granted: the action is lifted (the couple is told); refused: it stands
 * (told too).
 */

export const APPEAL_TEXTS = {
  notFound: "This action does not exist, or it is not one on your couple.",
  already: "Your couple has already appealed this action.",
  lifted: "This action was already lifted.",
  ended: "This action has already ended: there is nothing left to appeal.",
  endedMeanwhile: "This action has already ended: there is nothing left to refuse.",
  otherModerator: "Another moderator decides this appeal: you took the action.",
  decided: "This appeal does not exist or was already decided.",
  /** What moderators read of an appeal whose author deleted their account (eraseAppealsOf). */
  erased: "Deleted member: these words went with their account.",
} as const;

/**
 * A partner appeals an action on their couple (`POST /api/appeals`), only one still standing
 * (`standingNow`): a lifted one (APPEAL_TEXTS.lifted) or a restriction that ended
 * (APPEAL_TEXTS.ended) holds nothing to lift, and is refused.
 */
export async function appealSanction(db: Db, appellant: { userId: string; coupleId: string }, sanctionId: string, body: string) {
  return transaction(db, async (tx) => {
    // moderation_appeals.user_id has no foreign key: an appeal is not written after its author's erasure.
    await holdPersonRow(tx, appellant.userId);
    const [sanction] = await tx
      .select({ liftedAt: coupleSanctions.liftedAt, standing: sql<boolean>`${standingNow()}` })
      .from(coupleSanctions)
      .where(and(eq(coupleSanctions.id, sanctionId), eq(coupleSanctions.coupleId, appellant.coupleId)));
    if (!sanction) throw new AppError("NOT_FOUND", APPEAL_TEXTS.notFound);
    if (sanction.liftedAt) throw new AppError("VALIDATION_ERROR", APPEAL_TEXTS.lifted);
    if (!sanction.standing) throw new AppError("VALIDATION_ERROR", APPEAL_TEXTS.ended);
    const [row] = await tx
      .insert(moderationAppeals)
      .values({ sanctionId, userId: appellant.userId, body })
      .onConflictDoNothing()
      .returning({ id: moderationAppeals.id });
    if (!row) throw new AppError("ALREADY_REPORTED", APPEAL_TEXTS.already);
    return { id: row.id };
  });
}

/**
 * Deleting an account, in its transaction: the person's appeals lose their words and their
 * author, and stay as the couple's one appeal of each action (the unique index on sanction_id):
 * the partner who stays cannot appeal it again.
 */
export async function eraseAppealsOf(tx: Db, userId: string): Promise<void> {
  await tx.update(moderationAppeals).set({ body: "", userId: null }).where(eq(moderationAppeals.userId, userId));
}

export type OpenAppeal = {
  id: string;
  body: string;
  createdAt: string;
  sanction: { id: string; kind: string; reason: string; createdByUserId: string | null };
  couple: { id: string; coupleName: string };
};

const QUEUE_CONTEXT = "moderation-appeals";
const INVALID_CURSOR = "This page of the appeals is no longer available. Please reload.";

/**
 * The open appeals, oldest first (the queue: `GET /api/moderation/appeals?cursor=` and /moderation),
 * a keyset page at a time (moderation_appeals_open_idx). Never those a moderator may not decide
 * (`mayDecideFor`: their own couple's, whose actor is not theirs to know, or a couple their couple
 * reported): another moderator decides them.
 */
export async function openAppeals(db: Db, moderator: Pick<Moderator, "coupleId">, cursorText?: string): Promise<KeysetPage<OpenAppeal>> {
  const cursor = readCursor(QUEUE_CONTEXT, cursorText, INVALID_CURSOR);
  const rows = await db
    .select({
      id: moderationAppeals.id,
      body: moderationAppeals.body,
      userId: moderationAppeals.userId,
      createdAt: moderationAppeals.createdAt,
      sanctionId: coupleSanctions.id,
      kind: coupleSanctions.kind,
      reason: coupleSanctions.reason,
      createdByUserId: coupleSanctions.createdByUserId,
      coupleId: couples.id,
      coupleName: couples.coupleName,
    })
    .from(moderationAppeals)
    .innerJoin(coupleSanctions, eq(coupleSanctions.id, moderationAppeals.sanctionId))
    .innerJoin(couples, eq(couples.id, coupleSanctions.coupleId))
    .where(
      and(
        isNull(moderationAppeals.decidedAt),
        mayDecideFor(moderator, coupleSanctions.coupleId),
        cursor ? rowsAfter(moderationAppeals.createdAt, moderationAppeals.id, cursor, "asc") : undefined,
      ),
    )
    .orderBy(asc(moderationAppeals.createdAt), asc(moderationAppeals.id))
    .limit(APPEALS_PAGE_SIZE + 1);
  return keysetPage(
    rows,
    APPEALS_PAGE_SIZE,
    (row) => ({
      id: row.id,
      body: row.userId === null ? APPEAL_TEXTS.erased : row.body,
      createdAt: row.createdAt.toISOString(),
      sanction: { id: row.sanctionId, kind: row.kind, reason: row.reason, createdByUserId: row.createdByUserId },
      couple: { id: row.coupleId, coupleName: row.coupleName },
    }),
    (last) => cursorAfter(QUEUE_CONTEXT, { sortKey: last.createdAt, id: last.id }),
  );
}

/**
 * A moderator decides an appeal (`POST /api/moderation/appeals/{id}/{grant|refuse}`): granted lifts
 * the action, with the decision in one transaction (an action a moderator lifted meanwhile stays
 * lifted, one that ended meanwhile stays ended, and the decision is logged all the same, the couple
 * told nothing); refused leaves it, so an action lifted or ended meanwhile is not refused
 * (APPEAL_TEXTS.lifted, APPEAL_TEXTS.endedMeanwhile): the couple is never told it stands. With two or more on the team, never by the one
 * who acted.
 */
export async function decideAppeal(
  db: Db,
  moderator: Moderator,
  appealId: string,
  decision: "grant" | "refuse",
  reactions: readonly SafetyReactions[],
): Promise<void> {
  await transaction(db, async (tx) => {
    // The couple first (`lockedCouple`: its partners' rows, then it), as a deletion and every
    // moderator's action take them; then the appeal.
    const [target] = await tx
      .select({ coupleId: coupleSanctions.coupleId })
      .from(moderationAppeals)
      .innerJoin(coupleSanctions, eq(coupleSanctions.id, moderationAppeals.sanctionId))
      .where(eq(moderationAppeals.id, appealId));
    if (!target) throw new AppError("NOT_FOUND", APPEAL_TEXTS.decided);
    await lockedCouple(tx, target.coupleId);
    const [found] = await tx
      .select({
        sanctionId: coupleSanctions.id,
        coupleId: coupleSanctions.coupleId,
        kind: coupleSanctions.kind,
        reason: coupleSanctions.reason,
        endsAt: coupleSanctions.endsAt,
        actedBy: coupleSanctions.createdByUserId,
        liftedAt: coupleSanctions.liftedAt,
        standing: sql<boolean>`${standingNow()}`,
      })
      .from(moderationAppeals)
      .innerJoin(coupleSanctions, eq(coupleSanctions.id, moderationAppeals.sanctionId))
      .where(and(eq(moderationAppeals.id, appealId), isNull(moderationAppeals.decidedAt)))
      .for("update", { of: moderationAppeals });
    if (!found) throw new AppError("NOT_FOUND", APPEAL_TEXTS.decided);
    if (found.actedBy === moderator.userId) {
      const [{ team } = { team: 0 }] = await tx
        .select({ team: count() })
        .from(users)
        .where(inArray(users.role, ["moderator", "admin"]));
      if (team >= 2) throw new AppError("FORBIDDEN", APPEAL_TEXTS.otherModerator);
    }
    await assertMayActOn(tx, moderator, found.coupleId);
    // Refused says the action stands: one lifted meanwhile no longer does (granting it decides the appeal).
    if (decision === "refuse" && found.liftedAt) throw new AppError("VALIDATION_ERROR", APPEAL_TEXTS.lifted);
    if (decision === "refuse" && !found.standing) throw new AppError("VALIDATION_ERROR", APPEAL_TEXTS.endedMeanwhile);
    await tx
      .update(moderationAppeals)
      .set({ decidedAt: new Date(), decidedByUserId: moderator.userId, decision: decision === "grant" ? "lifted" : "upheld" })
      .where(eq(moderationAppeals.id, appealId));
    // The lift logs the decision; an action lifted or ended meanwhile (`liftLocked` lifts only a standing one) leaves it to be logged here.
    if (decision === "grant") {
      if (await liftLocked(tx, moderator, found.sanctionId, "Appeal granted", reactions, "appeal_decided")) return;
    }
    await recordModeration(tx, {
      moderatorUserId: moderator.userId,
      action: "appeal_decided",
      coupleId: found.coupleId,
      target: { type: "appeal", id: appealId },
      note: decision === "refuse" ? "refused" : `granted; the action ${found.liftedAt ? "was lifted" : "had ended"} already`,
    });
    if (decision === "refuse")
      await announceSanction(tx, reactions, "appealRefused", {
        sanctionId: found.sanctionId,
        coupleId: found.coupleId,
        kind: found.kind as SanctionKind,
        reason: found.reason,
        endsAt: found.endsAt?.toISOString() ?? null,
      });
  });
}

/** A suspended or banned couple's appeal, by a partner who proved who they are: against its latest standing suspension or ban. */
export async function appealSuspension(db: Db, userId: string, body: string) {
  const [standing] = await db
    .select({ sanctionId: coupleSanctions.id, coupleId: coupleSanctions.coupleId })
    .from(coupleSanctions)
    .innerJoin(couples, eq(couples.id, coupleSanctions.coupleId))
    .where(
      and(
        or(eq(couples.partner1Id, userId), eq(couples.partner2Id, userId)),
        inArray(coupleSanctions.kind, [...SUSPENDING_KINDS]),
        isNull(coupleSanctions.liftedAt),
      ),
    )
    .orderBy(desc(coupleSanctions.createdAt))
    .limit(1);
  if (!standing) throw new AppError("NOT_FOUND", "Your couple is not suspended: sign in to see your couple's standing.");
  return appealSanction(db, { userId, coupleId: standing.coupleId }, standing.sanctionId, body);
}

/**
 * The couple's own view of the actions on it: never which moderator; `standing`, whether each is
 * in force now (`standingNow`: only then may it be appealed, `appealSanction`).
 */
export async function ownStanding(db: Db, coupleId: string) {
  const rows = await db
    .select({
      id: coupleSanctions.id,
      kind: coupleSanctions.kind,
      reason: coupleSanctions.reason,
      endsAt: coupleSanctions.endsAt,
      createdAt: coupleSanctions.createdAt,
      liftedAt: coupleSanctions.liftedAt,
      standing: sql<boolean>`${standingNow()}`,
      appealedAt: moderationAppeals.createdAt,
      appealDecision: moderationAppeals.decision,
    })
    .from(coupleSanctions)
    .leftJoin(moderationAppeals, eq(moderationAppeals.sanctionId, coupleSanctions.id))
    .where(eq(coupleSanctions.coupleId, coupleId))
    .orderBy(desc(coupleSanctions.createdAt));
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    reason: row.reason,
    endsAt: row.endsAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    liftedAt: row.liftedAt?.toISOString() ?? null,
    standing: row.standing,
    appealedAt: row.appealedAt?.toISOString() ?? null,
    appealDecision: row.appealDecision,
  }));
}
export type OwnAction = Awaited<ReturnType<typeof ownStanding>>[number];

/** The words of the person's own appeals, by the action appealed (the data export): a partner's appeal is the partner's. */
export async function appealWordsOf(db: Db, userId: string): Promise<Map<string, string>> {
  const rows = await db
    .select({ sanctionId: moderationAppeals.sanctionId, body: moderationAppeals.body })
    .from(moderationAppeals)
    .where(eq(moderationAppeals.userId, userId));
  return new Map(rows.map((row) => [row.sanctionId, row.body]));
}
