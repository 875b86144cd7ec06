import "server-only";
import { holdUnrestricted } from "@/lib/safety/sanctions";
import { dropHeldHellosOf, holdHello, holdsHello, trustLevelOf } from "@/lib/safety/spam";
import { HELD_MESSAGE } from "@/lib/safety/spam-rules";
import { and, eq, gt, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { sentJustNow, transaction } from "@/db/transaction";
import { connectionApprovals, connectionRequests, conversations, couples, heldRequests, users } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { publishLive, type LiveEvent } from "@/lib/live/publish";
import { createNotifications, markReadFrom } from "@/lib/notifications/service";
import { connectionAccepted } from "@/lib/notifications/types/connection-accepted";
import { connectionRequest } from "@/lib/notifications/types/connection-request";
import type { NewNotification } from "@/lib/notifications/rules";
import { consumeLimit, LIMITS, spendLimits } from "@/lib/rate-limit";
import { actingCoupleColumns, actingCoupleOf, type ActingCouple } from "@/lib/membership/acting-couple";
import { decidingPartners, holdPartnersOfPair, partnerOf } from "@/lib/membership/partner";
import { blockedError, lockCouplePair } from "@/lib/safety/blocks";
import { standing, standTogether } from "@/lib/safety/visibility";
import { CONNECTION } from "./live";
import { conversationBetween, firstNames, latestRequestBetween, pairOf, type RequestCouple } from "./queries";
import {
  approvalOutcome,
  blocksNewRequest,
  CONNECTION_TEXTS,
  dailyRequestLimit,
  expiresAfter,
  isOpen,
  openSince,
  rateLimitedText,
} from "./rules";
import type { ConnectionSettings, SendRequestInput } from "./schemas";

const notFound = () => new AppError("NOT_FOUND", CONNECTION_TEXTS.notFound);
const requestNotFound = () => new AppError("NOT_FOUND", CONNECTION_TEXTS.requestNotFound);

/** A live `connection` row for each person, so every place showing the request can change. */
const connectionEvents = (people: readonly string[], requestId: string): LiveEvent[] =>
  people.map((userId) => ({ userId, kind: CONNECTION, subjectId: requestId }));

/** The couple on the other side of a request, with the partners to tell (404 if it is gone). */
async function coupleToTell(
  tx: Db,
  coupleId: string,
): Promise<{ coupleName: string; profileImageUrl: string | null; partnerIds: string[] }> {
  const [row] = await tx
    .select({ coupleName: couples.coupleName, profileImageUrl: couples.profileImageUrl, p1: couples.partner1Id, p2: couples.partner2Id })
    .from(couples)
    .where(eq(couples.id, coupleId));
  if (!row) throw notFound();
  return { coupleName: row.coupleName, profileImageUrl: row.profileImageUrl, partnerIds: row.p2 ? [row.p1, row.p2] : [row.p1] };
}

/** Notifies each person in the transaction (createNotifications writes their live rows). */
async function notifyAll(tx: Db, people: readonly string[], notification: Omit<NewNotification, "userId">): Promise<void> {
  await createNotifications(
    tx,
    people.map((userId) => ({ ...notification, userId })),
  );
}

export type SentRequest = { id: string; status: "pending"; couple: RequestCouple; note: string; createdAt: string };
/** A hello the spam rule held: the sender learns only that its requests are being reviewed. */
export type HeldHello = { status: "held"; message: string };
const held: HeldHello = { status: "held", message: HELD_MESSAGE };

/**
 * `POST /api/connections`: 'Say hello'. Every attempt counts against the couple's daily limit
 * (10, or 3 while its trust level is below trusted: lib/safety/spam-rules.ts), refused ones too, so probing who is hidden
 * or blocked costs the same as asking. Then: no request to oneself, to a couple hidden from the
 * directory or that blocked the caller's (404, nothing revealed), to one the caller's couple
 * blocked (403 BLOCKED), to a couple already talking with it (409 ALREADY_CONNECTED), or while an
 * open request stands either way or the last was sent under 90 days ago (409 ALREADY_REQUESTED),
 * unless that last one opened a conversation a block has ended (rules.ts's `blocksNewRequest`).
 * The same hello sent again (SENT_AGAIN_SECONDS) is answered as the first was and counts nothing:
 * recognised under the pair's lock before the count, so two sent at once count one.
 */
export async function sendRequest(db: Db, member: ActingCouple, input: SendRequestInput): Promise<SentRequest | HeldHello> {
  const level = await trustLevelOf(db, member);
  const outcome = await transaction(db, async (tx): Promise<{ answer: SentRequest | HeldHello } | { refused: AppError }> => {
    // Both couples' people first, in id order (the request's and notices' foreign keys name the
    // asked couple and its partners): a partner's deletion takes their row, then their couple's.
    await holdPartnersOfPair(tx, member.coupleId, input.coupleId);
    // A restriction made while the hello is on its way is waited for, never sent past (403 ACCOUNT_RESTRICTED, nothing
    // counted): the couple's people and row before the pair's lock, the order a moderator's action takes them.
    await holdUnrestricted(tx, member.coupleId);
    await lockCouplePair(tx, member.coupleId, input.coupleId);
    const again = await helloJustSent(tx, member.coupleId, input);
    if (again) return { answer: again };
    const limit = await consumeLimit(tx, dailyRequestLimit(level), member.coupleId);
    if (!limit.allowed) throw new AppError("RATE_LIMITED", rateLimitedText(level), { retryAfterSeconds: limit.retryAfterSeconds });
    // A refused attempt still counts: the refusal is answered once the count has committed.
    if (input.coupleId === member.coupleId) return { refused: notFound() };
    try {
      await assertPairMayRequest(tx, member.coupleId, input.coupleId);
    } catch (error) {
      if (error instanceof AppError) return { refused: error };
      throw error;
    }
    // The spam rule: the same note to too many couples today is held for the moderators, and the sender told so.
    if (await holdsHello(tx, member.coupleId, input.note)) {
      await holdHello(tx, { fromCoupleId: member.coupleId, toCoupleId: input.coupleId, sentByUserId: member.userId, note: input.note });
      return { answer: held };
    }
    return { answer: await deliverRequest(tx, member, input, member.partnerIds) };
  });
  if ("refused" in outcome) throw outcome.refused;
  return outcome.answer;
}

/**
 * The couple's same hello (to the same couple, the same note) sent just now (SENT_AGAIN_SECONDS),
 * as its sender was answered: not accepted (a silent decline included) and the two still standing together, or held. Null when
 * there is none (a block since then refuses it as any hello, counted). The caller holds the pair's lock.
 */
async function helloJustSent(tx: Db, fromCoupleId: string, input: SendRequestInput): Promise<SentRequest | HeldHello | null> {
  const [sent] = await tx
    .select({ id: connectionRequests.id, status: connectionRequests.status, createdAt: connectionRequests.createdAt })
    .from(connectionRequests)
    .where(
      and(
        eq(connectionRequests.fromCoupleId, fromCoupleId),
        sentJustNow(connectionRequests.createdAt),
        eq(connectionRequests.toCoupleId, input.coupleId),
        eq(connectionRequests.note, input.note),
      ),
    )
    .limit(1);
  if (sent) {
    const seen = await standing(tx, { coupleId: fromCoupleId }, input.coupleId);
    // Declined reads as pending to its sender (rules.ts senderStatus): answered as pending, or a resend would tell the decline.
    if (sent.status === "accepted" || seen?.viewer !== "other" || seen.blockedByViewer) return null;
    const target = await coupleToTell(tx, input.coupleId);
    return {
      id: sent.id,
      status: "pending",
      couple: { id: input.coupleId, coupleName: target.coupleName, profileImageUrl: target.profileImageUrl },
      note: input.note,
      createdAt: sent.createdAt.toISOString(),
    };
  }
  const [heldAlready] = await tx
    .select({ id: heldRequests.id })
    .from(heldRequests)
    .where(
      and(
        eq(heldRequests.fromCoupleId, fromCoupleId),
        sentJustNow(heldRequests.createdAt),
        eq(heldRequests.toCoupleId, input.coupleId),
        eq(heldRequests.note, input.note),
      ),
    )
    .limit(1);
  return heldAlready ? held : null;
}

/**
 * What a new request between two couples needs, in the transaction that sends it (the pair
 * locked): no block either way and the other couple visible (404 otherwise, nothing revealed), no
 * open conversation (409 ALREADY_CONNECTED), no open or recent request (409 ALREADY_REQUESTED).
 */
export async function assertPairMayRequest(tx: Db, fromCoupleId: string, toCoupleId: string): Promise<void> {
  // One writer at a time per pair of couples, so "one open request" holds; taken before the block
  // is read, so a block made while this waited is seen (a block takes the same lock).
  await lockCouplePair(tx, fromCoupleId, toCoupleId);
  const seen = await standing(tx, { coupleId: fromCoupleId }, toCoupleId);
  if (seen?.blockedByViewer) throw blockedError();
  if (seen?.viewer !== "other") throw notFound();
  const conversation = await conversationBetween(tx, fromCoupleId, toCoupleId);
  if (conversation && !conversation.endedAt)
    throw new AppError("ALREADY_CONNECTED", CONNECTION_TEXTS.alreadyConnected, { body: { conversationId: conversation.id } });
  // Both couples exist and no block stands, so an ended conversation was ended by a block since lifted.
  const endedByBlock = conversation !== null && conversation.endedAt !== null;
  if (blocksNewRequest(await latestRequestBetween(tx, fromCoupleId, toCoupleId), endedByBlock))
    throw new AppError("ALREADY_REQUESTED", CONNECTION_TEXTS.alreadyRequested);
}

/**
 * Writes the request once the checks passed, notifies the asked couple and tells each of
 * `livePeople` (the sender's partners; none for a held hello a moderator delivers, so the sender
 * is not told which way it went) and the asked couple's partners that it changed.
 */
export async function deliverRequest(
  tx: Db,
  sender: { coupleId: string; coupleName: string; userId: string | null },
  input: SendRequestInput,
  livePeople: readonly string[],
): Promise<SentRequest> {
  const now = new Date();
  const [row] = await tx
    .insert(connectionRequests)
    .values({
      fromCoupleId: sender.coupleId,
      toCoupleId: input.coupleId,
      sentByUserId: sender.userId,
      note: input.note,
      createdAt: now,
      expiresAt: expiresAfter(now),
    })
    .returning({ id: connectionRequests.id, createdAt: connectionRequests.createdAt });
  const target = await coupleToTell(tx, input.coupleId);
  await notifyAll(tx, target.partnerIds, {
    type: connectionRequest.type,
    title: connectionRequest.text.title,
    message: connectionRequest.text.message(sender.coupleName),
    actorUserId: sender.userId,
    actorCoupleId: sender.coupleId,
  });
  await publishLive(tx, connectionEvents([...livePeople, ...target.partnerIds], row!.id));
  return {
    id: row!.id,
    status: "pending",
    couple: { id: input.coupleId, coupleName: target.coupleName, profileImageUrl: target.profileImageUrl },
    note: input.note,
    createdAt: row!.createdAt.toISOString(),
  };
}

export type AcceptOutcome = { status: "accepted"; conversationId: string } | { status: "pending"; waitingFor: string };

/**
 * The request to the member's couple, locked for the answer, while the two couples stand together
 * (`standTogether`, lib/safety/visibility.ts); anything else (another couple's, blocked, from a
 * suspended couple) is 404, as the caller checks an expired or answered one.
 */
async function openRequestTo(tx: Db, member: ActingCouple, requestId: string) {
  const [asked] = await tx
    .select({ fromCoupleId: connectionRequests.fromCoupleId })
    .from(connectionRequests)
    .where(and(eq(connectionRequests.id, requestId), eq(connectionRequests.toCoupleId, member.coupleId)));
  if (!asked) throw requestNotFound();
  // Both couples' people before their rows (the acceptance's notices name the sender's partners),
  // as a hello sent takes them: a partner's deletion takes their row, then their couple's.
  await holdPartnersOfPair(tx, asked.fromCoupleId, member.coupleId);
  // What the answer reads of the two couples holds until it commits: a block between them waits
  // for it (the pair's lock), and so does a suspension of either (their rows, shared), and a
  // change of 'Both of us approve new connections'.
  await lockCouplePair(tx, asked.fromCoupleId, member.coupleId);
  const rows = await tx
    .select({ id: couples.id, bothApprove: couples.bothApproveConnections })
    .from(couples)
    .where(inArray(couples.id, [asked.fromCoupleId, member.coupleId]))
    .orderBy(couples.id)
    .for("share");
  const [request] = await tx
    .select()
    .from(connectionRequests)
    .where(
      and(
        eq(connectionRequests.id, requestId),
        eq(connectionRequests.toCoupleId, member.coupleId),
        standTogether(connectionRequests.fromCoupleId, connectionRequests.toCoupleId),
      ),
    )
    .for("update");
  // The switch as saved now, not as the session read it: turned off by the partner a moment ago,
  // its sweep of answered hellos (acceptHellosAnswered) did not see this answer yet.
  const own = rows.find((row) => row.id === member.coupleId);
  if (!request || !own) throw requestNotFound();
  return { ...request, bothApprove: own.bothApprove };
}

/** The pair's one conversation: made on the first acceptance, opened again after it ended. */
async function openConversation(tx: Db, one: string, other: string): Promise<string> {
  const [low, high] = pairOf(one, other);
  const [row] = await tx
    .insert(conversations)
    .values({ coupleLowId: low, coupleHighId: high })
    .onConflictDoUpdate({
      target: [conversations.coupleLowId, conversations.coupleHighId],
      set: { endedAt: null, lastActivityAt: sql`now()` },
    })
    .returning({ id: conversations.id });
  return row!.id;
}

/**
 * `POST /api/connections/{id}/accept`: one partner's acceptance opens the conversation for all
 * four and notifies the sending couple's partners; with 'Both of us approve new connections' it
 * opens only once both have accepted, and meanwhile answers whom it waits for. Accepting an
 * accepted request answers its conversation again (the partners may both tap at once).
 */
export async function acceptRequest(db: Db, member: ActingCouple, requestId: string): Promise<AcceptOutcome> {
  return transaction(db, async (tx) => {
    const request = await openRequestTo(tx, member, requestId);
    if (request.status === "accepted" && request.conversationId) return { status: "accepted", conversationId: request.conversationId };
    if (!isOpen(request)) throw requestNotFound();
    await tx
      .insert(connectionApprovals)
      .values({ requestId, userId: member.userId, accepted: true })
      .onConflictDoUpdate({ target: [connectionApprovals.requestId, connectionApprovals.userId], set: { accepted: true } });
    const approvals = await tx
      .select({ userId: connectionApprovals.userId, accepted: connectionApprovals.accepted })
      .from(connectionApprovals)
      .where(eq(connectionApprovals.requestId, requestId));
    // Read in the transaction: a partner 2 who proved the address a moment ago waits to be asked.
    const outcome = approvalOutcome(request.bothApprove, await decidingPartners(tx, member.coupleId), approvals);
    if (outcome.status === "pending") {
      // Answered by this partner: their own entry no longer waits for them.
      await markReadFrom(tx, [member.userId], connectionRequest.type, request.fromCoupleId);
      await publishLive(tx, connectionEvents(member.partnerIds, requestId));
      const [waiting] = await firstNames(tx, [outcome.waitingFor]);
      return { status: "pending", waitingFor: waiting?.firstName ?? "" };
    }
    const conversationId = await openConversation(tx, request.fromCoupleId, member.coupleId);
    await tx
      .update(connectionRequests)
      .set({ status: "accepted", answeredAt: sql`now()`, conversationId })
      .where(eq(connectionRequests.id, requestId));
    await markReadFrom(tx, member.partnerIds, connectionRequest.type, request.fromCoupleId);
    const sender = await coupleToTell(tx, request.fromCoupleId);
    await notifyAll(tx, sender.partnerIds, {
      type: connectionAccepted.type,
      title: connectionAccepted.text.title,
      message: connectionAccepted.text.message(member.coupleName),
      conversationId,
      actorUserId: member.userId,
      actorCoupleId: member.coupleId,
    });
    await publishLive(tx, connectionEvents([...member.partnerIds, ...sender.partnerIds], requestId));
    return { status: "accepted", conversationId };
  });
}

/**
 * `POST /api/connections/{id}/decline`: one partner's decline declines it. Silent: the sender
 * still reads 'pending' until it expires, and is told nothing (only the receiving partners' live
 * rows change). Declining a declined request answers the same.
 */
export async function declineRequest(db: Db, member: ActingCouple, requestId: string): Promise<{ status: "declined" }> {
  return transaction(db, async (tx) => {
    const request = await openRequestTo(tx, member, requestId);
    if (request.status === "declined") return { status: "declined" };
    if (!isOpen(request)) throw requestNotFound();
    await tx
      .insert(connectionApprovals)
      .values({ requestId, userId: member.userId, accepted: false })
      .onConflictDoUpdate({ target: [connectionApprovals.requestId, connectionApprovals.userId], set: { accepted: false } });
    await tx
      .update(connectionRequests)
      .set({ status: "declined", answeredAt: sql`now()` })
      .where(eq(connectionRequests.id, requestId));
    await markReadFrom(tx, member.partnerIds, connectionRequest.type, request.fromCoupleId);
    await publishLive(tx, connectionEvents(member.partnerIds, requestId));
    return { status: "declined" };
  });
}

/**
 * Either partner turns 'Both of us approve new connections' on or off; requests already open follow
 * the new choice. Each save counts against the person's LIMITS.connectionSettingsPerUser.
 */
export async function saveConnectionSettings(db: Db, member: ActingCouple, settings: ConnectionSettings): Promise<ConnectionSettings> {
  await spendLimits(db, [[LIMITS.connectionSettingsPerUser, member.userId]]);
  await db.update(couples).set({ bothApproveConnections: settings.bothApprove }).where(eq(couples.id, member.coupleId));
  if (!settings.bothApprove) await acceptHellosAnswered(db, member.coupleId);
  return settings;
}

/**
 * Deleting an account erases the hellos the person sent from their couple (their words), in its
 * transaction: the notes of their requests, and the hellos the spam rule still holds from them.
 */
export async function eraseRequestNotes(tx: Db, userId: string, coupleId: string | null): Promise<void> {
  if (!coupleId) return;
  await dropHeldHellosOf(tx, userId, coupleId);
  await tx
    .update(connectionRequests)
    .set({ note: "" })
    .where(and(eq(connectionRequests.fromCoupleId, coupleId), eq(connectionRequests.sentByUserId, userId)));
}

/**
 * The hellos to a couple that its partners' acceptances now open, each as acceptRequest opens it
 * (by a partner who accepted): after 'Both of us approve new connections' is turned off, or a
 * partner's account is deleted (a couple of one partner needs one: approvalOutcome), one who
 * accepted while it waited for the other no longer waits. Otherwise the hello would stay pending,
 * with no badge for the partner who answered, until it expired. A hello no longer open (expired,
 * the couples apart) stays as it is.
 */
export async function acceptHellosAnswered(db: Db, coupleId: string): Promise<void> {
  const rows = await db
    .select({ id: users.id, firstName: users.firstName, role: users.role, ...actingCoupleColumns(couples) })
    .from(users)
    .innerJoin(couples, and(eq(couples.id, coupleId), partnerOf(users.id)));
  const members = new Map<string, ActingCouple>();
  for (const row of rows) {
    const member = actingCoupleOf(row);
    if (member) members.set(member.userId, member);
  }
  const [anyone] = members.values();
  if (!anyone) return;
  const now = new Date();
  const answers = await db
    .select({ requestId: connectionApprovals.requestId, userId: connectionApprovals.userId, accepted: connectionApprovals.accepted })
    .from(connectionApprovals)
    .innerJoin(connectionRequests, eq(connectionRequests.id, connectionApprovals.requestId))
    .where(
      and(
        eq(connectionRequests.toCoupleId, coupleId),
        eq(connectionRequests.status, "pending"),
        // Open ones only: an expired hello stays 'pending', and one partner's acceptances left to
        // expire would each be tried again on every sweep (the incoming index's range, as the inbox bounds it).
        gt(connectionRequests.createdAt, openSince(now)),
        gt(connectionRequests.expiresAt, now),
        inArray(connectionApprovals.userId, anyone.partnerIds),
      ),
    );
  // The partners acceptRequest waits on (not a partner 2 who cannot sign in yet).
  const deciding = await decidingPartners(db, coupleId);
  for (const [requestId, approvals] of Map.groupBy(answers, (answer) => answer.requestId)) {
    const accepter = members.get(approvals.find((answer) => answer.accepted)?.userId ?? "");
    if (!accepter || approvalOutcome(anyone.bothApprove, deciding, approvals).status !== "accepted") continue;
    try {
      await acceptRequest(db, accepter, requestId);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
  }
}
