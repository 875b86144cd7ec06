import "server-only";
import { assertNotRestricted, holdUnrestricted } from "@/lib/safety/sanctions";
import { and, eq, inArray, isNull, max, ne, not, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { oneAtATime, sentJustNow, transaction } from "@/db/transaction";
import { couples, forumMentions, forumPhotos, forumPosts, forumReactions, forumReplies, notifications } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { storeImage, deleteImages } from "@/lib/images/store";
import { writeDeletingImages } from "@/lib/images/undeleted";
import type { NewNotification, NotificationKind } from "@/lib/notifications/rules";
import { createNotifications, rewordNotifications, upsertGroupedNotification, withdrawNotifications } from "@/lib/notifications/service";
import { mention as mentionNotification } from "@/lib/notifications/types/mention";
import { reaction as reactionNotification } from "@/lib/notifications/types/reaction";
import { reply as replyNotification } from "@/lib/notifications/types/reply";
import { consumeLimit, limitError, spendLimits, type Limit } from "@/lib/rate-limit";
import { blockedError, lockCouplePair, lockCouplePairs, notBlockedBetween } from "@/lib/safety/blocks";
import { standing, standings } from "@/lib/safety/visibility";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { holdPartnersWhere, partnersByCouple, partnersIn } from "@/lib/membership/partner";
import {
  couplePlace,
  readPost,
  readReply,
  visiblePostRow,
  visibleReplyRow,
  type ForumPost,
  type ForumPostDetail,
  type ForumReply,
} from "./queries";
import { notFound, replyShownTo } from "./thread";
import { FORUM_LIMITS, FORUM_TEXTS, notifiedName, type ReactionKind, type ReactionTarget } from "./rules";
import { FORUM_MESSAGES, type CreatePostInput, type CreateReplyInput, type PatchPostInput, type PatchReplyInput } from "./schemas";
import { mentionedIds } from "./text";
import { quoting, snippet, toldOf, waitingQuoting } from "./notices";
import { countTopReaction, holdTopWindow, uncountTopReaction } from "./top";
import { claimForumPhotos, dropPostPhotos, forumPhotoKeys, lockLivePost } from "./photos";
import { holdNamedRows } from "./named-rows";
import { seenByEveryReader } from "./activity";

const replyNotFound = () => new AppError("NOT_FOUND", "This reply does not exist or is no longer available.");
const notYours = (what: "post" | "reply") => new AppError("FORBIDDEN", `You can only change your own ${what}s.`);

/** Counts one write against the person's hourly limit; over it, the spec's 429 with Retry-After. */
async function spend(db: Db, limit: Limit, userId: string): Promise<void> {
  const state = await consumeLimit(db, limit, userId);
  if (!state.allowed) throw limitError(limit, state.retryAfterSeconds);
}

const duplicate = () =>
  new AppError("DUPLICATE_CONTENT", "You posted this a moment ago. Please wait a minute before posting the same text again.");

/**
 * The couples a post or reply may mention, from the ids sent: only those its text still names
 * (`mentionedIds`, the composer's own rule). Of these, a couple the actor blocked is refused
 * (403 BLOCKED); one the actor may not see otherwise (missing, hidden, inactive, or one that
 * blocked them, which they are never told) or the author's own is dropped, as if its id had never
 * been sent; so is, in an existing thread, one that may not open it or read the reply edited
 * (`visiblePostRow`, `visibleReplyRow`: a block either way with the post's couple, a post or reply
 * hidden by reports), whom a mention would only send to a 404 or a thread without it.
 */
async function validMentions(
  db: Db,
  actor: ActingCouple,
  ids: readonly string[],
  text: string,
  shownIn?: { postId: string; replyId?: string },
  toldToo: readonly string[] = [],
): Promise<string[]> {
  const candidates =
    ids.length === 0
      ? []
      : await db
          .select({ coupleId: couples.id, name: couples.coupleName })
          .from(couples)
          .where(inArray(couples.id, [...ids]));
  const named = mentionedIds(text, candidates);
  // The pairs' locks a block takes (as a reaction's notice does) before its block is read: a block
  // made meanwhile is waited for and seen here, or waits for this commit and withdraws what it sent.
  // The couples the write tells otherwise (`toldToo`) in the same sorted run: two writers never
  // take two pairs in opposite orders.
  await lockCouplePairs(db, actor.coupleId, [...named, ...toldToo]);
  if (named.length === 0) return [];
  const found = [...(await standings(db, { coupleId: actor.coupleId }, named))];
  if (found.some(([, standing]) => standing.blockedByViewer)) throw blockedError();
  const seen = found.filter(([, standing]) => standing.viewer === "other").map(([id]) => id);
  if (!shownIn) return seen;
  const mayRead: string[] = [];
  for (const coupleId of seen) {
    if (!(await visiblePostRow(db, { coupleId }, shownIn.postId))) continue;
    if (shownIn.replyId && !(await visibleReplyRow(db, { coupleId }, shownIn.replyId))) continue;
    mayRead.push(coupleId);
  }
  return mayRead;
}

/** A notification about to be written; its title names the actor as the recipient knows them (notifiedName). */
type Notice = { type: NotificationKind; title: (who: string) => string; message: string; postId: string; replyId: string | null };

/**
 * Writes one notification per recipient for one event, in the caller's transaction: never to
 * the actor, and each person once (the first notice that names them wins, so a reply that also
 * mentions the post's couple notifies them as a reply).
 */
async function notifyOnce(db: Db, actor: ActingCouple, notices: { recipients: readonly string[]; notice: Notice }[]): Promise<void> {
  const done = new Set([actor.userId]);
  const partners = new Set(actor.partnerIds);
  const written: NewNotification[] = [];
  for (const { recipients, notice } of notices) {
    for (const userId of recipients) {
      if (done.has(userId)) continue;
      done.add(userId);
      const title = notice.title(notifiedName(actor, partners.has(userId)));
      written.push({ userId, ...notice, title, actorUserId: actor.userId, actorCoupleId: actor.coupleId });
    }
  }
  await createNotifications(db, written);
}

async function insertMentions(db: Db, postId: string, replyId: string | null, coupleIds: readonly string[]): Promise<void> {
  if (coupleIds.length === 0) return;
  await db
    .insert(forumMentions)
    .values(coupleIds.map((mentionedCoupleId) => ({ postId, replyId, mentionedCoupleId })))
    .onConflictDoNothing();
}

/** The mentions of a post (replyId null) or of a reply. */
const mentionsIn = (postId: string, replyId: string | null) =>
  replyId ? eq(forumMentions.replyId, replyId) : and(eq(forumMentions.postId, postId), isNull(forumMentions.replyId));

/** Replaces the mentions of a post (replyId null) or reply; answers the couples that are new. */
async function replaceMentions(db: Db, postId: string, replyId: string | null, coupleIds: readonly string[]): Promise<string[]> {
  const target = mentionsIn(postId, replyId);
  const before = await db.select({ id: forumMentions.mentionedCoupleId }).from(forumMentions).where(target);
  const had = new Set(before.map((row) => row.id));
  await db
    .delete(forumMentions)
    .where(and(target, coupleIds.length > 0 ? not(inArray(forumMentions.mentionedCoupleId, [...coupleIds])) : undefined));
  const added = coupleIds.filter((id) => !had.has(id));
  await insertMentions(db, postId, replyId, added);
  return added;
}

/**
 * An edit of the words that sends no `mentions` (the API allows it) keeps only the couples the
 * new text still names: a name edited out no longer links to its couple.
 */
async function keepMentionsNamedIn(db: Db, postId: string, replyId: string | null, text: string): Promise<void> {
  const linked = await db
    .select({ coupleId: forumMentions.mentionedCoupleId, name: couples.coupleName })
    .from(forumMentions)
    .innerJoin(couples, eq(couples.id, forumMentions.mentionedCoupleId))
    .where(mentionsIn(postId, replyId));
  await replaceMentions(db, postId, replyId, mentionedIds(text, linked));
}

const mentionNotice = (postId: string, replyId: string | null, text: string): Notice => ({
  type: mentionNotification.type,
  title: mentionNotification.text.title,
  message: snippet(text),
  postId,
  replyId,
});

/** Counts each couple about to be told of a mention against the person's hourly limit. */
const spendMentions = (db: Db, actor: ActingCouple, count: number) =>
  spendLimits(
    db,
    Array.from({ length: count }, () => [FORUM_LIMITS.mentionedCouplesPerUser, actor.userId] as const),
  );

/**
 * Key-shares the partners of the couples a post or reply mentions (holdPartnersWhere) before it
 * names them (a mention's foreign key to the couple, a notice's to each partner) and before the
 * post's row: a partner's deletion holds their row, then locks their couple and updates the posts
 * they reacted to (Top).
 */
async function holdMentioned(tx: Db, coupleIds: readonly string[] | null): Promise<void> {
  if (coupleIds && coupleIds.length > 0) await holdPartnersWhere(tx, inArray(couples.id, [...coupleIds]));
}

/**
 * Tells the partners of the couples mentioned in a post or reply (notice.replyId), but not a
 * couple one of whose partners was told of a mention there before: a mention edited out and in
 * again tells nobody twice. Each couple told counts against the limit (a partner who turned
 * in-app mentions off leaves no row to find, so the limit is what bounds their e-mails).
 */
async function tellMentioned(db: Db, actor: ActingCouple, coupleIds: readonly string[], notice: Notice): Promise<void> {
  if (coupleIds.length === 0) return;
  const partners = await partnersByCouple(db, coupleIds);
  const told = await db
    .selectDistinct({ userId: notifications.userId })
    .from(notifications)
    .where(
      and(
        inArray(notifications.userId, partnersIn(partners, coupleIds)),
        eq(notifications.type, mentionNotification.type),
        eq(notifications.postId, notice.postId),
        notice.replyId ? eq(notifications.replyId, notice.replyId) : isNull(notifications.replyId),
      ),
    );
  const toldUsers = new Set(told.map((row) => row.userId));
  const untold = coupleIds.filter((id) => !(partners.get(id) ?? []).some((userId) => toldUsers.has(userId)));
  await spendMentions(db, actor, untold.length);
  await notifyOnce(db, actor, [{ recipients: partnersIn(partners, untold), notice }]);
}

/* ---------- Posts ---------- */

/**
 * `POST /api/forum/posts`: a post by the person for their couple. A local post takes the
 * couple's place now, at city level at most; without a usable place it is refused (409).
 */
export async function createPost(db: Db, actor: ActingCouple, input: CreatePostInput): Promise<ForumPostDetail> {
  // Before the hourly count too (a restricted couple spends nothing), and again inside, below.
  await assertNotRestricted(db, actor.coupleId);
  await spend(db, FORUM_LIMITS.postsPerUser, actor.userId);
  const id = await transaction(db, async (tx) => {
    // A restriction made while the post is on its way is waited for, never posted past: people, couple, then the post.
    await holdUnrestricted(tx, actor.coupleId);
    const place = input.scope === "local" ? await couplePlace(tx, actor.coupleId) : null;
    if (input.scope === "local" && !place) throw new AppError("LOCATION_REQUIRED", FORUM_TEXTS.noLocation);
    const mentions = await validMentions(tx, actor, input.mentions, input.body);
    await holdMentioned(tx, mentions);
    // Checked and written one at a time per author: the same words from two tabs at one instant post once.
    await oneAtATime(tx, `forum-post:${actor.userId}`);
    const [twice] = await tx
      .select({ id: forumPosts.id })
      .from(forumPosts)
      .where(and(eq(forumPosts.authorUserId, actor.userId), sentJustNow(forumPosts.createdAt), eq(forumPosts.body, input.body)))
      .limit(1);
    if (twice) throw duplicate();
    // After the duplicate check: the second of two tabs hears that it posted twice, not that its photos are taken.
    await claimForumPhotos(tx, actor.userId, input.photos);
    const [post] = await tx
      .insert(forumPosts)
      .values({
        authorUserId: actor.userId,
        coupleId: actor.coupleId,
        scope: input.scope,
        topic: input.topic,
        title: input.title,
        body: input.body,
        photos: input.photos,
        ...(place ?? {}),
      })
      .returning({ id: forumPosts.id });
    await insertMentions(tx, post!.id, null, mentions);
    await tellMentioned(tx, actor, mentions, mentionNotice(post!.id, null, input.title));
    return post!.id;
  });
  return readPost(db, actor, id);
}

/** The author's own post that is still there (not deleted or removed), else 404/403. */
async function ownLivePost(db: Db, actor: ActingCouple, postId: string) {
  const row = await visiblePostRow(db, actor, postId);
  if (!row || row.deletedAt || row.removedAt) throw notFound();
  if (row.authorUserId !== actor.userId) throw notYours("post");
  return row;
}

/** `PATCH /api/forum/posts/{id}`: the author edits (FORUM_LIMITS.editsPerUser); couples newly mentioned are notified. */
export async function patchPost(db: Db, actor: ActingCouple, postId: string, patch: PatchPostInput): Promise<ForumPostDetail> {
  await spend(db, FORUM_LIMITS.editsPerUser, actor.userId);
  await writeDeletingImages(db, async (tx) => {
    // A restricted couple neither posts nor rewrites what it posted, a restriction made meanwhile
    // waited for: the author's people and couple (the rows its notices name) before the post's row.
    await holdUnrestricted(tx, actor.coupleId);
    const row = await ownLivePost(tx, actor, postId);
    const mentions = patch.mentions ? await validMentions(tx, actor, patch.mentions, patch.body ?? row.body, { postId }) : null;
    const text = { authorUserId: actor.userId, postId, replyId: null };
    // The bells of those its reworded notices went to are told at the commit: the mentioned
    // people's, whose deletion updates the post next when they reacted to it (Top).
    await holdNamedRows(tx, await toldOf(tx, text), []);
    await holdMentioned(tx, mentions);
    // The post's row locked and read again: an edit, a delete or a removal at the same instant
    // waits, and what the post shows now is what this edit claims against and drops from.
    const shown = await lockLivePost(tx, postId);
    if (patch.photos) await claimForumPhotos(tx, actor.userId, patch.photos, shown);
    const { mentions: _mentions, ...fields } = patch;
    await tx
      .update(forumPosts)
      .set({ ...fields, editedAt: sql`now()` })
      .where(eq(forumPosts.id, postId));
    if (mentions) {
      const added = await replaceMentions(tx, postId, null, mentions);
      await tellMentioned(tx, actor, added, mentionNotice(postId, null, patch.title ?? row.title));
    } else if (patch.body !== undefined) await keepMentionsNamedIn(tx, postId, null, patch.body);
    // What was sent about the post quotes its title as it now reads.
    if (patch.title !== undefined) await rewordNotifications(tx, quoting(text), snippet(patch.title), waitingQuoting(text));
    // The photos edited out go, files and all (lib/forum/photos.ts).
    return { result: undefined, deletedKeys: patch.photos ? forumPhotoKeys(shown.filter((url) => !patch.photos!.includes(url))) : [] };
  });
  return readPost(db, actor, postId);
}

/** `DELETE /api/forum/posts/{id}`: the author deletes; with replies the thread stays under "This post was deleted". */
export async function deletePost(db: Db, actor: ActingCouple, postId: string): Promise<void> {
  await writeDeletingImages(db, async (tx) => {
    await ownLivePost(tx, actor, postId);
    const text = { authorUserId: actor.userId, postId, replyId: null };
    // The bells its withdrawn notices went to are told at the commit: the author's (reactions) and
    // the mentioned people's, whose deletion updates the post next when they reacted to it (Top).
    await holdNamedRows(tx, [actor.userId, ...(await toldOf(tx, text))], []);
    await lockLivePost(tx, postId);
    await tx
      .update(forumPosts)
      .set({ deletedAt: sql`now()` })
      .where(eq(forumPosts.id, postId));
    await withdrawNotifications(tx, quoting(text), waitingQuoting(text));
    return { result: undefined, deletedKeys: await dropPostPhotos(tx, postId) };
  });
}

/* ---------- Replies ---------- */

/**
 * `POST /api/forum/posts/{id}/replies`: notifies both partners of the post's couple and the
 * author of the quoted reply (as a reply), then the partners of mentioned couples (as a
 * mention), each person once, never the actor, in the reply's transaction.
 */
export async function createReply(db: Db, actor: ActingCouple, postId: string, input: CreateReplyInput): Promise<ForumReply> {
  // Before the hourly count too (a restricted couple spends nothing), and again inside, below.
  await assertNotRestricted(db, actor.coupleId);
  await spend(db, FORUM_LIMITS.repliesPerUser, actor.userId);
  const id = await transaction(db, async (tx) => {
    // The post's row first, and the reply dated once it is held (clock_timestamp(), not the
    // transaction's start), after every reply already there: a post's replies are dated in the
    // order they commit, strictly (stored to the millisecond, two in one millisecond would tie and
    // be ordered by their random ids; a clock stepped back would date one before), so a thread
    // polling for replies after its last one (lib/forum/thread.ts) misses none, and the post is
    // read below as it stands (a delete or a removal at the same instant waits, or was seen).
    // Before it, the people and couples the reply and its notices name: the actor's, and the
    // post's author and couple (told, or mentioned), whose deletion empties this post next. The
    // actor's couple share-locked among them (holdUnrestricted, its partners with the people): a
    // restriction made while the reply is on its way is waited for, never replied past.
    const [target] = await tx
      .select({ authorUserId: forumPosts.authorUserId, coupleId: forumPosts.coupleId })
      .from(forumPosts)
      .where(eq(forumPosts.id, postId));
    if (!target) throw notFound();
    // The quoted reply's couple, told as the post's is: both pairs locked with the mentioned ones,
    // before any row, so a block made meanwhile is waited for and seen by the checks below.
    const [quotedCouple] = input.quoteReplyId
      ? await tx
          .select({ coupleId: forumReplies.coupleId })
          .from(forumReplies)
          .where(and(eq(forumReplies.id, input.quoteReplyId), eq(forumReplies.postId, postId)))
      : [];
    const told = [target.coupleId, quotedCouple?.coupleId ?? null].filter((coupleId): coupleId is string => coupleId !== null);
    const mentions = await validMentions(tx, actor, input.mentions, input.body, { postId }, told);
    await holdNamedRows(tx, [actor.userId, target.authorUserId], []);
    await holdMentioned(tx, mentions);
    await holdUnrestricted(tx, actor.coupleId);
    await holdNamedRows(tx, [], [target.coupleId]);
    await tx.select({ id: forumPosts.id }).from(forumPosts).where(eq(forumPosts.id, postId)).for("no key update");
    const post = await visiblePostRow(tx, actor, postId);
    if (!post || post.deletedAt || post.removedAt) throw notFound();
    let quotedAuthor: string | null = null;
    if (input.quoteReplyId) {
      const [quote] = await tx
        .select({ authorUserId: forumReplies.authorUserId, coupleId: forumReplies.coupleId })
        .from(forumReplies)
        .where(
          and(
            eq(forumReplies.id, input.quoteReplyId),
            eq(forumReplies.postId, postId),
            isNull(forumReplies.deletedAt),
            isNull(forumReplies.removedAt),
            // One hidden by reports is not there for another couple either, so its author is not told.
            replyShownTo(actor.coupleId),
          ),
        )
        .limit(1);
      // A deleted member's reply has no couple left to block or be blocked by. A reply of a couple
      // that blocked the actor is not there for them, as their thread shows it (they are never told).
      const stand = quote?.coupleId ? await standing(tx, { coupleId: actor.coupleId }, quote.coupleId) : null;
      if (!quote || stand?.blocksViewer)
        throw new AppError("VALIDATION_ERROR", FORUM_MESSAGES.quoteInvalid, { fieldErrors: { quoteReplyId: FORUM_MESSAGES.quoteInvalid } });
      if (stand?.blockedByViewer) throw blockedError();
      // Its author is told only while their couple may open the thread (its post's couple may have
      // blocked theirs since): a notice would lead them to a 404, as a mention would (validMentions).
      if (quote.coupleId && (await visiblePostRow(tx, { coupleId: quote.coupleId }, postId))) quotedAuthor = quote.authorUserId;
    }
    await oneAtATime(tx, `forum-reply:${actor.userId}`);
    const [twice] = await tx
      .select({ id: forumReplies.id })
      .from(forumReplies)
      .where(and(eq(forumReplies.authorUserId, actor.userId), sentJustNow(forumReplies.createdAt), eq(forumReplies.body, input.body)))
      .limit(1);
    if (twice) throw duplicate();
    const [reply] = await tx
      .insert(forumReplies)
      .values({
        postId,
        authorUserId: actor.userId,
        coupleId: actor.coupleId,
        quoteReplyId: input.quoteReplyId ?? null,
        body: input.body,
        createdAt: sql`greatest(clock_timestamp(), (${tx
          .select({ at: max(forumReplies.createdAt) })
          .from(forumReplies)
          .where(eq(forumReplies.postId, postId))}) + interval '1 millisecond')`,
      })
      .returning({ id: forumReplies.id, createdAt: forumReplies.createdAt });
    // A post's last activity (./activity.ts) moves for a reply every reader sees, and never back,
    // whatever the clock did meanwhile.
    await tx
      .update(forumPosts)
      .set({
        replyCount: sql`${forumPosts.replyCount} + 1`,
        lastActivityAt: sql`case when ${seenByEveryReader(actor.coupleId)}
          then greatest(${forumPosts.lastActivityAt}, ${reply!.createdAt.toISOString()}::timestamptz)
          else ${forumPosts.lastActivityAt} end`,
      })
      .where(eq(forumPosts.id, postId));
    await insertMentions(tx, postId, reply!.id, mentions);
    await spendMentions(tx, actor, mentions.length);
    // The post's couple and the couples mentioned, in one read.
    const postCouple = post.coupleId === null ? [] : [post.coupleId];
    const partners = await partnersByCouple(tx, [...postCouple, ...mentions]);
    const quoted = snippet(input.body);
    await notifyOnce(tx, actor, [
      {
        recipients: partnersIn(partners, postCouple),
        notice: { type: replyNotification.type, title: replyNotification.text.toPost, message: quoted, postId, replyId: reply!.id },
      },
      {
        recipients: quotedAuthor ? [quotedAuthor] : [],
        notice: { type: replyNotification.type, title: replyNotification.text.toReply, message: quoted, postId, replyId: reply!.id },
      },
      { recipients: partnersIn(partners, mentions), notice: mentionNotice(postId, reply!.id, input.body) },
    ]);
    return reply!.id;
  });
  return (await readReply(db, actor, id))!;
}

/** The author's own reply that is still there, else 404/403. */
async function ownLiveReply(db: Db, actor: ActingCouple, replyId: string) {
  const [row] = await db
    .select({ postId: forumReplies.postId, authorUserId: forumReplies.authorUserId, coupleId: forumReplies.coupleId })
    .from(forumReplies)
    .where(and(eq(forumReplies.id, replyId), isNull(forumReplies.deletedAt), isNull(forumReplies.removedAt)))
    .limit(1);
  if (!row || !(await visiblePostRow(db, actor, row.postId))) throw replyNotFound();
  if (row.authorUserId !== actor.userId) {
    if (!(await readReply(db, actor, replyId))) throw replyNotFound();
    throw notYours("reply");
  }
  return row;
}

/** `PATCH /api/forum/replies/{id}`: the author edits the body (and the mentions, when sent): FORUM_LIMITS.editsPerUser. */
export async function patchReply(db: Db, actor: ActingCouple, replyId: string, patch: PatchReplyInput): Promise<ForumReply> {
  await spend(db, FORUM_LIMITS.editsPerUser, actor.userId);
  await transaction(db, async (tx) => {
    // A restricted couple rewrites none of its replies, a restriction made meanwhile waited for:
    // the author's people and couple (the rows its notices name) before the reply's row.
    await holdUnrestricted(tx, actor.coupleId);
    const row = await ownLiveReply(tx, actor, replyId);
    const text = { authorUserId: actor.userId, postId: row.postId, replyId };
    // The bells of those its notices went to are told at the commit, as they are reworded: the
    // people it mentioned or quoted, whose deletion takes their notices with their row.
    await holdNamedRows(tx, await toldOf(tx, text), []);
    const mentions = patch.mentions ? await validMentions(tx, actor, patch.mentions, patch.body, { postId: row.postId, replyId }) : null;
    await holdMentioned(tx, mentions);
    // Only while it is still there: a delete or a removal that committed meanwhile (its row was
    // waited on) leaves the edit nothing to change, nor anyone to tell of words that are gone.
    const [edited] = await tx
      .update(forumReplies)
      .set({ body: patch.body, editedAt: sql`now()` })
      .where(and(eq(forumReplies.id, replyId), isNull(forumReplies.deletedAt), isNull(forumReplies.removedAt)))
      .returning({ id: forumReplies.id });
    if (!edited) throw replyNotFound();
    // What was sent about the reply quotes it as it now reads.
    await rewordNotifications(tx, quoting(text), snippet(patch.body), waitingQuoting(text));
    if (mentions) {
      const added = await replaceMentions(tx, row.postId, replyId, mentions);
      await tellMentioned(tx, actor, added, mentionNotice(row.postId, replyId, patch.body));
    } else await keepMentionsNamedIn(tx, row.postId, replyId, patch.body);
  });
  return (await readReply(db, actor, replyId))!;
}

/** `DELETE /api/forum/replies/{id}`: the author deletes; the thread keeps a placeholder (quotes of it still resolve). */
export async function deleteReply(db: Db, actor: ActingCouple, replyId: string): Promise<void> {
  await transaction(db, async (tx) => {
    const row = await ownLiveReply(tx, actor, replyId);
    const text = { authorUserId: actor.userId, postId: row.postId, replyId };
    // The bells of those its notices went to are told at the commit: the post's author (told of it),
    // the actor (of reactions to it), whose deletion empties the post or this reply next, and the
    // people it mentioned or quoted, whose deletion updates the post next when they reacted to it (Top).
    const [post] = await tx.select({ authorUserId: forumPosts.authorUserId }).from(forumPosts).where(eq(forumPosts.id, row.postId));
    await holdNamedRows(tx, [actor.userId, post?.authorUserId ?? null, ...(await toldOf(tx, text))], []);
    // Only while it is still there: a second delete at the same instant (two tabs) found it too,
    // and must neither count it off again nor answer as if it had deleted it.
    const [deleted] = await tx
      .update(forumReplies)
      .set({ deletedAt: sql`now()` })
      .where(and(eq(forumReplies.id, replyId), isNull(forumReplies.deletedAt), isNull(forumReplies.removedAt)))
      .returning({ id: forumReplies.id });
    if (!deleted) throw replyNotFound();
    await withdrawNotifications(tx, quoting(text), waitingQuoting(text));
    await tx
      .update(forumPosts)
      .set({ replyCount: sql`greatest(${forumPosts.replyCount} - 1, 0)` })
      .where(eq(forumPosts.id, row.postId));
  });
}

/* ---------- Reactions ---------- */

export type ReactionState = { reactions: ForumPost["reactions"]; myReactions: ReactionKind[] };

/** The target of a reaction as the actor may see it and react to (present, not deleted or removed), else 404. */
async function reactionTarget(db: Db, actor: ActingCouple, target: ReactionTarget, id: string) {
  if (target === "post") {
    const post = await visiblePostRow(db, actor, id);
    if (!post || post.deletedAt || post.removedAt) throw notFound();
    return { postId: id, replyId: null, recipient: post.authorUserId, recipientCouple: post.coupleId, text: post.title };
  }
  const reply = await readReply(db, actor, id);
  if (!reply || reply.deleted || reply.removed || !(await visiblePostRow(db, actor, reply.postId))) throw replyNotFound();
  return { postId: reply.postId, replyId: id, recipient: reply.author.userId, recipientCouple: reply.author.coupleId, text: reply.body };
}

/**
 * `PUT|DELETE /api/forum/{posts|replies}/{id}/reactions/{kind}`: idempotent (a second PUT or
 * DELETE changes nothing). A new reaction notifies the person reacted to (not themself), in
 * one unread row per target and day that names the latest couple and counts the others; a couple
 * the reader may not see (lib/safety/visibility.ts) is counted but neither named nor pictured, as
 * in who reacted (./reactions.ts).
 */
export async function setReaction(
  db: Db,
  actor: ActingCouple,
  target: ReactionTarget,
  id: string,
  kind: ReactionKind,
  on: boolean,
): Promise<ReactionState> {
  await spend(db, FORUM_LIMITS.reactionsPerUser, actor.userId);
  await transaction(db, async (tx) => {
    let found = await reactionTarget(tx, actor, target, id);
    // Its notice goes to another couple: the two couples' lock (a block takes it) before anything is
    // written, so a block made meanwhile refuses the reaction rather than letting its notice reach
    // the blocking couple after it (unnamed: 'A couple reacted').
    if (found.recipientCouple && found.recipientCouple !== actor.coupleId) await lockCouplePair(tx, actor.coupleId, found.recipientCouple);
    // Then the target's row (a post's after Top's window, the order a rebuild takes them), and the
    // target read again under both: a delete or a removal at the same instant waits, or was seen
    // (404), and never leaves a reaction or its notice on what is gone.
    // The rows its writes name (the actor, their couple, the one told) before the target's (holdNamedRows).
    await holdNamedRows(tx, [actor.userId, found.recipient], [actor.coupleId]);
    if (target === "post") await holdTopWindow(tx);
    const row = target === "post" ? forumPosts : forumReplies;
    await tx.select({ id: row.id }).from(row).where(eq(row.id, id)).for("no key update");
    found = await reactionTarget(tx, actor, target, id);
    const sameTarget = and(
      eq(forumReactions.postId, found.postId),
      found.replyId ? eq(forumReactions.replyId, found.replyId) : isNull(forumReactions.replyId),
    );
    if (!on) {
      const removed = await tx
        .delete(forumReactions)
        .where(and(sameTarget, eq(forumReactions.userId, actor.userId), eq(forumReactions.kind, kind)))
        .returning({ createdAt: forumReactions.createdAt });
      if (removed[0] && found.replyId === null) await uncountTopReaction(tx, found.postId, removed[0].createdAt);
      return;
    }
    const inserted = await tx
      .insert(forumReactions)
      .values({ postId: found.postId, replyId: found.replyId, userId: actor.userId, coupleId: actor.coupleId, kind })
      .onConflictDoNothing()
      .returning({ id: forumReactions.id });
    if (inserted.length > 0 && found.replyId === null) await countTopReaction(tx, found.postId);
    if (inserted.length === 0 || found.recipient === null || found.recipient === actor.userId) return;
    // A reply's author is told only while their couple may open its thread (its post's couple may have blocked theirs since).
    if (found.replyId && found.recipientCouple && !(await visiblePostRow(tx, { coupleId: found.recipientCouple }, found.postId))) return;
    const [{ couplesToday } = { couplesToday: 1 }] = await tx
      .select({ couplesToday: sql<number>`count(distinct ${forumReactions.coupleId})::int` })
      .from(forumReactions)
      .where(
        and(
          sameTarget,
          ne(forumReactions.userId, found.recipient),
          sql`${forumReactions.createdAt} >= date_trunc('day', now() at time zone 'utc') at time zone 'utc'`,
          // As the target's own counts: a couple blocked either way with the reader's is not counted.
          found.recipientCouple ? notBlockedBetween(found.recipientCouple, forumReactions.coupleId) : undefined,
        ),
      );
    const actorCount = Math.max(1, couplesToday);
    // The target's read has left out couples blocked either way: what remains is whether the
    // reader's couple may see the actor's (its own, or a discoverable couple).
    const seen = (await standing(tx, { coupleId: found.recipientCouple }, actor.coupleId))?.viewer ?? null;
    await upsertGroupedNotification(tx, {
      userId: found.recipient,
      type: reactionNotification.type,
      // A partner is named by first name; another couple by its name (grouped reactions count couples).
      title: reactionNotification.text.title(
        seen === "own" ? actor.firstName : seen === "other" ? actor.coupleName : null,
        actorCount - 1,
        target,
      ),
      message: snippet(found.text),
      postId: found.postId,
      replyId: found.replyId,
      // Kept for a couple the reader may not see too: the bell names and pictures it only while the
      // reader may (`seenByViewer`), and drops its notice once the two no longer stand together (a block).
      actorUserId: actor.userId,
      actorCoupleId: actor.coupleId,
      groupKey: reactionNotification.text.groupKey(target, id),
      actorCount,
    });
  });
  // Read after the commit: a block or a hiding since may have taken the target from the reactor.
  const fresh = target === "post" ? await readPost(db, actor, id) : await readReply(db, actor, id);
  if (!fresh) throw target === "post" ? notFound() : replyNotFound();
  return { reactions: fresh.reactions, myReactions: fresh.myReactions };
}

/* ---------- Photos ---------- */

/**
 * `POST /api/forum/photos`: one photo through the image pipeline (sharp, metadata stripped),
 * recorded with its uploader so only they can attach it. A failed record removes the file. A
 * restricted couple may not post, so it gets no public image URL either (nor a day of hosting).
 */
export async function uploadForumPhoto(db: Db, actor: ActingCouple, bytes: Uint8Array): Promise<{ url: string }> {
  await assertNotRestricted(db, actor.coupleId);
  await spend(db, FORUM_LIMITS.photosPerUser, actor.userId);
  const stored = await storeImage(bytes, "forum-photo");
  try {
    await db.insert(forumPhotos).values({ url: stored.url, ownerUserId: actor.userId });
  } catch (error) {
    await deleteImages(db, [stored.key]);
    throw error;
  }
  return { url: stored.url };
}
