import "server-only";
import { assertNotRestricted, holdUnrestricted } from "@/lib/safety/sanctions";
import { and, desc, eq, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { oneAtATime, sentJustNow, transaction } from "@/db/transaction";
import { conversationReads, conversations, couples, messagePhotos, messageReactions, messages, users } from "@/db/schema";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { AppError } from "@/lib/errors";
import { unusablePhotoMessage } from "@/lib/images/rules";
import { deleteImages, storePrivateImage } from "@/lib/images/store";
import { writeDeletingImages } from "@/lib/images/undeleted";
import { forgetSubject, publishEphemeral, publishLive, type LiveEvent } from "@/lib/live/publish";
import { lockGroup, markGroupRead, upsertGroupedNotification } from "@/lib/notifications/service";
import { checkLimit, consumeLimit, limitError, recordHit, spendLimits } from "@/lib/rate-limit";
import { conversationUnread, holdMembersOfMessage, membersOf, messageById, messageIn, openConversation, type MessageItem } from "./queries";
import { hearsOfMessage, holdPeopleOfConversations, ofCouple } from "./access";
import { MESSAGE, MESSAGE_DELETED, READ } from "./live";
import { TYPING } from "./typing";
import { endConversations, tellPartnerGone } from "./ending";
import { withdrawEmailsQuoting } from "./unread-email";
import { messagePhotoKey, messagePhotoUrl } from "./photos";
import { message as messageNotification } from "@/lib/notifications/types/message";
import { MESSAGE_LIMITS, MESSAGE_TEXTS } from "./rules";
import type { SendMessageInput } from "./schemas";

/** The conversation's newest message before the one being sent. */
const previous = alias(messages, "previous");

/** Counts one message against the person's minute and day, under their lock (so two instances cannot both take the last slot). */
async function spendMessage(tx: Db, userId: string): Promise<void> {
  await oneAtATime(tx, `message:${userId}`);
  for (const limit of [MESSAGE_LIMITS.perMinute, MESSAGE_LIMITS.perDay]) {
    const state = await checkLimit(tx, limit, userId);
    if (!state.allowed) throw limitError(limit, state.retryAfterSeconds);
  }
  for (const limit of [MESSAGE_LIMITS.perMinute, MESSAGE_LIMITS.perDay]) await recordHit(tx, limit, userId);
}

/** Takes the author's unused upload for the message; anything else is refused (never an outside URL, never another's photo, never twice). */
async function claimPhoto(tx: Db, userId: string, url: string | null): Promise<void> {
  if (url === null) return;
  const claimed = await tx
    .delete(messagePhotos)
    .where(and(eq(messagePhotos.url, url), eq(messagePhotos.ownerUserId, userId)))
    .returning({ url: messagePhotos.url });
  if (claimed.length === 0) {
    const message = unusablePhotoMessage(messagePhotoKey(url) !== null);
    throw new AppError("VALIDATION_ERROR", message, { fieldErrors: { photoUrl: message } });
  }
}

/**
 * A reply answers a message of its own conversation that is still there; anything else is a 400.
 * Key-share locked, as the reply's foreign key would lock it: an erasure under way (its author's,
 * a moderator's, an account's: `erase` locks the message for update) is waited for, and the message
 * is read again as it left it, so no reply is sent to words erased meanwhile.
 */
async function answerable(tx: Db, conversationId: string, replyToId: string): Promise<void> {
  const [row] = await tx
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.id, replyToId), eq(messages.conversationId, conversationId), isNull(messages.deletedAt)))
    .for("key share");
  if (!row)
    throw new AppError("VALIDATION_ERROR", MESSAGE_TEXTS.replyToInvalid, { fieldErrors: { replyToId: MESSAGE_TEXTS.replyToInvalid } });
}

/**
 * The author's message in the conversation sent under the composer's key just now
 * (SENT_AGAIN_SECONDS: a 'Send' again after an answer that never came), or null. Looked for among
 * their newest messages there that are still there: no more than a minute's sending limit of them
 * are that recent (messages_conversation_author_seq_idx), however many they sent before.
 */
async function sentUnderKey(tx: Db, userId: string, conversationId: string, clientKey: string): Promise<string | null> {
  const newest = tx
    .select({ id: messages.id, clientKey: messages.clientKey, createdAt: messages.createdAt })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.authorUserId, userId), isNull(messages.deletedAt)))
    .orderBy(desc(messages.seq))
    .limit(MESSAGE_LIMITS.perMinute.limit)
    .as("newest");
  const [row] = await tx
    .select({ id: newest.id })
    .from(newest)
    .where(and(eq(newest.clientKey, clientKey), sentJustNow(newest.createdAt)));
  return row?.id ?? null;
}

/**
 * `POST /api/conversations/{id}/messages`: 30 a minute and 500 a day per person (429 with
 * Retry-After); an ended conversation refuses (403 CONVERSATION_ENDED). The conversation's row
 * lock orders its messages, so `seq` follows commit order. The other couple's partners
 * (hearsOfMessage) get one unread 'message' notification per conversation (in the app only, none
 * while they muted it), and all four a live `message` row, in the same transaction. The same
 * `clientKey` sent again just after answers the message it sent (`sentUnderKey`), nothing counted.
 */
export async function sendMessage(db: Db, member: ActingCouple, conversationId: string, input: SendMessageInput): Promise<MessageItem> {
  const id = await transaction(db, async (tx) => {
    // The four people first (the notices and live rows name them): a deletion of the other
    // couple's last partner takes their row, then ends this conversation (holdPeopleOfConversations).
    await holdPeopleOfConversations(tx, sql`${conversationId}::uuid`, member.coupleId);
    // A restriction made while the message is on its way is waited for, never sent past: people, couple, then the conversation.
    await holdUnrestricted(tx, member.coupleId);
    await openConversation(tx, member, conversationId, "no key update");
    // Under the conversation's lock, before anything is counted or claimed (its photo is the first's).
    const sentAgain = input.clientKey ? await sentUnderKey(tx, member.userId, conversationId, input.clientKey) : null;
    if (sentAgain) return sentAgain;
    await spendMessage(tx, member.userId);
    await claimPhoto(tx, member.userId, input.photoUrl);
    if (input.replyToId) await answerable(tx, conversationId, input.replyToId);
    const [row] = await tx
      .insert(messages)
      .values({
        conversationId,
        authorUserId: member.userId,
        authorCoupleId: member.coupleId,
        body: input.body,
        photoUrl: input.photoUrl,
        replyToId: input.replyToId,
        clientKey: input.clientKey,
        // Dated under the conversation's lock, as `seq` is numbered, and after the message before
        // it: a thread orders and pages by date (lib/messages/display.ts), so a message dated at or
        // before an earlier one (the same millisecond, or a clock set back) would sort above it, and
        // the open threads would take it for an older one and leave it out. now() is when the
        // transaction began: one that began first but waited would be dated before it too.
        createdAt: sql`greatest(clock_timestamp(), (${tx
          .select({ next: sql`${previous.createdAt} + interval '1 millisecond'` })
          .from(previous)
          .where(eq(previous.conversationId, conversationId))
          .orderBy(desc(previous.seq))
          .limit(1)}))`,
      })
      .returning({ id: messages.id, createdAt: messages.createdAt });
    await tx
      .update(conversations)
      .set({ lastMessageId: row!.id, lastActivityAt: row!.createdAt })
      .where(eq(conversations.id, conversationId));
    const people = await membersOf(tx, conversationId);
    const events: LiveEvent[] = people.map(({ userId }) => ({ userId, kind: MESSAGE, subjectId: row!.id }));
    for (const person of people) {
      // The other couple hears of it (hearsOfMessage: never the author's own partner), unless they muted it.
      if (!hearsOfMessage(member.coupleId, person.coupleId) || person.mutedAt) continue;
      await upsertGroupedNotification(tx, {
        userId: person.userId,
        type: messageNotification.type,
        title: messageNotification.text.title(member.coupleName),
        message: messageNotification.text.message(member.firstName, member.coupleName),
        conversationId,
        actorUserId: member.userId,
        actorCoupleId: member.coupleId,
        groupKey: messageNotification.text.groupKey(conversationId),
        actorCount: 1,
      });
    }
    await publishLive(tx, events);
    return row!.id;
  });
  return (await messageById(db, member.userId, id))!;
}

/** Erases messages in the caller's transaction (words and photo gone from the database); answers the photos' storage keys to remove after commit. */
async function erase(tx: Db, where: ReturnType<typeof and>): Promise<{ ids: { id: string; conversationId: string }[]; keys: string[] }> {
  const before = await tx
    .select({
      id: messages.id,
      conversationId: messages.conversationId,
      photoUrl: messages.photoUrl,
      authorUserId: messages.authorUserId,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(where)
    .for("update");
  if (before.length === 0) return { ids: [], keys: [] };
  // Nor in the e-mails about unread messages still waiting to leave.
  await withdrawEmailsQuoting(tx, before);
  // Nothing of an erased message stays, the reactions to it included. The rows just locked are
  // named by their condition, not listed: an account's erasure may hold more messages than a
  // statement takes parameters (65,534).
  await tx.delete(messageReactions).where(inArray(messageReactions.messageId, tx.select({ id: messages.id }).from(messages).where(where)));
  await tx
    .update(messages)
    .set({ body: null, photoUrl: null, deletedAt: sql`coalesce(${messages.deletedAt}, now())` })
    .where(where);
  const keys = before.flatMap((row) => {
    const key = row.photoUrl ? messagePhotoKey(row.photoUrl) : null;
    return key ? [key] : [];
  });
  return { ids: before.map(({ id, conversationId }) => ({ id, conversationId })), keys };
}

/** A live `message_deleted` row for every member of each conversation that lost a message. */
async function deletionEvents(tx: Db, erased: { id: string; conversationId: string }[]): Promise<LiveEvent[]> {
  const events: LiveEvent[] = [];
  for (const conversationId of new Set(erased.map((row) => row.conversationId))) {
    const people = await membersOf(tx, conversationId);
    for (const row of erased.filter((r) => r.conversationId === conversationId))
      for (const { userId } of people) events.push({ userId, kind: MESSAGE_DELETED, subjectId: row.id });
  }
  return events;
}

/**
 * The conversation's bell entry of the person ('message', one per person and conversation) is read
 * once its thread has nothing left unread for them (the count is answered), so the bell never
 * announces messages read or gone. The entry is locked before the count: a message whose notice
 * refreshed it and has not committed yet is counted (this waits for it), never marked read unseen.
 */
async function readBellIfCaughtUp(tx: Db, userId: string, conversationId: string): Promise<number> {
  const groupKey = messageNotification.text.groupKey(conversationId);
  await lockGroup(tx, userId, groupKey);
  const unreadCount = await conversationUnread(tx, userId, conversationId);
  if (unreadCount === 0) await markGroupRead(tx, userId, groupKey);
  return unreadCount;
}

/**
 * After an erasure, in its transaction: all four are told (a live `message_deleted` row each), and
 * a bell entry that told only of what was erased is read (`readBellIfCaughtUp`).
 */
async function afterErasure(tx: Db, erased: { id: string; conversationId: string }[]): Promise<void> {
  await publishLive(tx, await deletionEvents(tx, erased));
  for (const conversationId of new Set(erased.map((row) => row.conversationId)))
    for (const { userId } of await membersOf(tx, conversationId)) await readBellIfCaughtUp(tx, userId, conversationId);
}

/**
 * `DELETE /api/messages/{id}`: its author erases it (text and photo gone from the database; all
 * four see 'This message was deleted', and a bell entry that told only of it is read). Another member of the conversation gets 403, anyone else
 * 404. Deleting a deleted message answers the same.
 */
export async function deleteMessage(db: Db, member: ActingCouple, messageId: string): Promise<void> {
  await writeDeletingImages(db, async (tx) => {
    const [row] = await tx
      .select({ authorUserId: messages.authorUserId, deletedAt: messages.deletedAt })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(and(eq(messages.id, messageId), ofCouple(member.coupleId)));
    if (!row) throw new AppError("NOT_FOUND", MESSAGE_TEXTS.messageNotFound);
    if (row.authorUserId !== member.userId) throw new AppError("FORBIDDEN", MESSAGE_TEXTS.notAuthor);
    if (row.deletedAt) return { result: undefined, deletedKeys: [] };
    await holdMembersOfMessage(tx, messageId);
    const erased = await erase(tx, eq(messages.id, messageId));
    await afterErasure(tx, erased.ids);
    return { result: undefined, deletedKeys: erased.keys };
  });
}

/** A moderator removes a reported message: erased as its author would (in the decision's transaction); answers the photo's storage keys. */
export async function removeMessage(tx: Db, messageId: string): Promise<string[]> {
  const erased = await erase(tx, eq(messages.id, messageId));
  await afterErasure(tx, erased.ids);
  return erased.keys;
}

/**
 * `POST /api/conversations/{id}/read`: the caller's read position moves up to the message (never
 * back; another's, 400 on one's own); answers this conversation's unread count for them. Read to the end, the conversation's
 * 'message' notification is read too. The other members get a live `read` row ('Seen by'). An
 * ended conversation refuses (403 CONVERSATION_ENDED), as does muting one. Each call counts
 * against the person's `readsPerMinute`.
 */
export async function markRead(db: Db, member: ActingCouple, conversationId: string, upTo: string): Promise<{ unreadCount: number }> {
  await spendLimits(db, [[MESSAGE_LIMITS.readsPerMinute, member.userId]]);
  return transaction(db, async (tx) => {
    // The four people first (the live rows name them), as a message's send holds them: a deletion
    // of the other couple's last partner takes their row, then ends this conversation.
    await holdPeopleOfConversations(tx, sql`${conversationId}::uuid`, member.coupleId);
    // Held open until the position commits (shared, as a change is): a block or a suspension ending it waits, so none moves after.
    await openConversation(tx, member, conversationId, "share");
    const message = await messageIn(tx, conversationId, upTo);
    // A read position is what one read of the others' (ARCHITECTURE.md: never one's own message),
    // as the thread sends it (display.ts `readUpTo`): 'Seen by' is never under one's own words.
    if (message.authorUserId === member.userId)
      throw new AppError("VALIDATION_ERROR", MESSAGE_TEXTS.upToOwn, { fieldErrors: { upTo: MESSAGE_TEXTS.upToOwn } });
    const [moved] = await tx
      .insert(conversationReads)
      .values({ userId: member.userId, conversationId, lastReadSeq: message.seq, lastReadMessageId: message.id })
      .onConflictDoUpdate({
        target: [conversationReads.userId, conversationReads.conversationId],
        set: { lastReadSeq: message.seq, lastReadMessageId: message.id },
        setWhere: sql`${conversationReads.lastReadSeq} < ${message.seq}`,
      })
      .returning({ userId: conversationReads.userId });
    const unreadCount = await readBellIfCaughtUp(tx, member.userId, conversationId);
    if (moved) {
      const people = await membersOf(tx, conversationId);
      await publishLive(
        tx,
        people.map(({ userId }) => ({ userId, kind: READ, subjectId: member.userId, payload: { conversationId } })),
      );
    }
    return { unreadCount };
  });
}

/**
 * `POST /api/conversations/{id}/typing`: tells the conversation's other members, on their open
 * streams, that the caller is typing; nothing of it is stored (a rate-limit hit aside), and it
 * carries no words. Members only (404 otherwise); an ended conversation refuses (403
 * CONVERSATION_ENDED); the route checks `typingPerMinute` before the body, and this counts it.
 */
export async function announceTyping(db: Db, member: ActingCouple, conversationId: string): Promise<void> {
  // A restricted couple reads but does not write: nor does it seem to.
  await assertNotRestricted(db, member.coupleId);
  await openConversation(db, member, conversationId);
  // Checked and counted under the person's lock: calls at once take the minute's slots one by one.
  await spendLimits(db, [[MESSAGE_LIMITS.typingPerMinute, member.userId]]);
  const others = (await membersOf(db, conversationId)).map(({ userId }) => userId).filter((userId) => userId !== member.userId);
  await publishEphemeral(db, TYPING, { to: others, subjectId: conversationId, payload: { userId: member.userId } });
}

/** 'Mute' (per person): no notifications from the conversation; unread counts kept. Undo any time (both count against `mutesPerHour`). */
export async function setMuted(db: Db, member: ActingCouple, conversationId: string, muted: boolean): Promise<{ muted: boolean }> {
  await spendLimits(db, [[MESSAGE_LIMITS.mutesPerHour, member.userId]]);
  return transaction(db, async (tx) => {
    // The person's own row first (what their read row's foreign key takes anyway; a mute tells
    // nobody else): their account's deletion in another tab takes it, then, their couple's last
    // partner gone, ends this conversation. Held after the conversation, the two would wait on each other.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, member.userId)).for("key share");
    // Held as a read position is (shared): a message on its way holds the conversation (no key
    // update) and is waited for, so its notice comes before the mute, or reads the mute and never comes.
    await openConversation(tx, member, conversationId, "share");
    const mutedAt = muted ? new Date() : null;
    await tx
      .insert(conversationReads)
      .values({ userId: member.userId, conversationId, mutedAt })
      .onConflictDoUpdate({ target: [conversationReads.userId, conversationReads.conversationId], set: { mutedAt } });
    return { muted };
  });
}

/**
 * `POST /api/messages/photos`: one photo through the image pipeline (judged by content, metadata
 * stripped, resized), for a message to come, stored privately (lib/messages/photos.ts). A
 * restricted couple sends no messages, so it stores no photo for one either.
 */
export async function uploadMessagePhoto(db: Db, member: ActingCouple, bytes: Uint8Array): Promise<{ url: string }> {
  await assertNotRestricted(db, member.coupleId);
  const state = await consumeLimit(db, MESSAGE_LIMITS.photosPerHour, member.userId);
  if (!state.allowed) throw limitError(MESSAGE_LIMITS.photosPerHour, state.retryAfterSeconds);
  const stored = await storePrivateImage(bytes, "message-photo");
  const url = messagePhotoUrl(stored.key);
  try {
    await db.insert(messagePhotos).values({ url, ownerUserId: member.userId });
  } catch (error) {
    await deleteImages(db, [stored.key]);
    throw error;
  }
  return { url };
}

/**
 * A live `message` row for every member of each conversation with a message the person reacted
 * to (others' messages still there: their own go with `erase`). Their reactions go with their user
 * row; told now, the open threads of the others show each message without them.
 */
async function reactionEvents(tx: Db, userId: string): Promise<LiveEvent[]> {
  const reacted = await tx
    .selectDistinct({ id: messages.id, conversationId: messages.conversationId })
    .from(messageReactions)
    .innerJoin(messages, eq(messages.id, messageReactions.messageId))
    .where(and(eq(messageReactions.userId, userId), isNull(messages.deletedAt)));
  const byConversation = Map.groupBy(reacted, (row) => row.conversationId);
  const events: LiveEvent[] = [];
  for (const [conversationId, rows] of byConversation) {
    const others = (await membersOf(tx, conversationId)).filter((person) => person.userId !== userId);
    for (const row of rows) for (const person of others) events.push({ userId: person.userId, kind: MESSAGE, subjectId: row.id });
  }
  return events;
}

/**
 * Deleting an account, in its transaction: the person's messages are erased as their author would
 * erase them (they read 'This message was deleted' by 'Deleted member' once the user row goes; a
 * bell entry that told only of them is read: afterErasure), the others' open threads lose
 * their reactions (`reactionEvents`; the rows go with the user's), and, when no partner remains,
 * their couple's conversations end (`coupleGoes`); else their people's open threads load again
 * without the person (`tellPartnerGone`). Answers the photos' storage keys to remove.
 */
export async function eraseMember(tx: Db, userId: string, coupleId: string | null, coupleGoes: boolean): Promise<string[]> {
  const erased = await erase(tx, and(eq(messages.authorUserId, userId), or(isNull(messages.deletedAt), isNotNull(messages.photoUrl))));
  await afterErasure(tx, erased.ids);
  await publishLive(tx, await reactionEvents(tx, userId));
  if (coupleGoes && coupleId) {
    await endConversations(tx, and(ofCouple(coupleId), isNull(conversations.endedAt))!);
  } else if (coupleId) await tellPartnerGone(tx, coupleId, userId);
  const uploads = await tx.select({ url: messagePhotos.url }).from(messagePhotos).where(eq(messagePhotos.ownerUserId, userId));
  return [...erased.keys, ...uploads.flatMap((row) => messagePhotoKey(row.url) ?? [])];
}

/**
 * Deleting an account, in its transaction while the person's read positions still stand: the
 * people whose live `read` rows ('Seen by') may name the person as the reader, the members of the
 * conversations they read. Read by one statement, taking no lock.
 */
export async function readReceiptHolders(tx: Db, userId: string): Promise<string[]> {
  const rows = await tx
    .selectDistinct({ partner1Id: couples.partner1Id, partner2Id: couples.partner2Id })
    .from(conversationReads)
    .innerJoin(conversations, eq(conversations.id, conversationReads.conversationId))
    .innerJoin(couples, or(eq(couples.id, conversations.coupleLowId), eq(couples.id, conversations.coupleHighId)))
    .where(eq(conversationReads.userId, userId));
  const people = rows.flatMap((row) => [row.partner1Id, row.partner2Id]);
  return [...new Set(people.filter((id): id is string => id !== null && id !== userId))];
}

/** After the deletion's commit (no read of theirs comes after it): those rows no longer name the person. */
export async function forgetReadReceipts(db: Db, readerId: string, holders: readonly string[]): Promise<void> {
  await forgetSubject(db, holders, READ, readerId);
}
