import "server-only";
import { verificationForExport } from "@/lib/verification/queries";
import { appealWordsOf, ownStanding } from "@/lib/safety/appeals";
import { and, desc, eq, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { isEmbedded, type Db } from "@/db/client";
import { afterRow, keysetOrder, keysetPages } from "@/db/keyset-pages";
import { transaction } from "@/db/transaction";
import { jsonStream, isPages, type Pages } from "@/lib/http/json-stream";
import {
  coupleBlocks,
  couples,
  forumPhotos,
  forumPosts,
  forumReactions,
  forumReplies,
  invitations,
  locations,
  notifications,
  reports,
  sessions,
  users,
} from "@/db/schema";
import { describeDevice } from "@/lib/auth/device";
import { partnerOf } from "@/lib/membership/partner";
import { answersBy, requestsSentBy } from "@/lib/connections/queries";
import { heldHellosSentBy } from "@/lib/safety/spam";
import { ownConversationReads, ownMessageReactions, ownMessages } from "@/lib/messages/queries";
import { getPreferences } from "@/lib/notifications/preferences";
import { own } from "@/lib/notifications/queries";
import { devicesForExport, getPushChoices } from "@/lib/notifications/push/subscriptions";
import { draftsForExport, isOnWaitlist } from "@/lib/events/service";
import { plansForExport } from "@/lib/plans/export";
import { dismissalsForExport } from "@/lib/discover/export";
import { selfColumns } from "@/lib/users/projections";
import { userNotFound } from "@/lib/errors";
import { LIMITS, spendLimits } from "@/lib/rate-limit";

export const EXPORT_FORMAT_VERSION = 1;

/**
 * Rows of a long list (one that grows with the account's life: its messages, forum posts and
 * replies, reactions, notifications) read and written at a time: the export holds one
 * page, not the list.
 */
export const EXPORT_PAGE_SIZE = 1_000;

/** One consistent picture: every page is read in the snapshot the document's first read took. */
const SNAPSHOT = { isolationLevel: "repeatable read", accessMode: "read only" } as const;

type Document = Awaited<ReturnType<typeof readAccount>>;
/** The document with each list read in pages held whole. */
type Whole<D> = { [K in keyof D]: D[K] extends Pages<infer Item> ? Item[] : D[K] };

/** The pages of `pages`, each row shown to `each` as it passes. */
async function* tapped<Row>(pages: Pages<Row>, each: (row: Row) => void): AsyncGenerator<Row[]> {
  for await (const page of pages) {
    page.forEach(each);
    yield page;
  }
}

/**
 * Everything stored about a person and their couple, as one JSON document ('Download my data'),
 * read in one repeatable-read transaction so it is one consistent picture. Never a secret: no
 * password hash, no token or token hash, no refresh token; sessions without their ids' secrets.
 * The partner appears only as the couple shows them (first name, id): their own data is theirs.
 * The long lists are pages read as the document is written, so the transaction stays open until
 * `end` is called (by the stream: finished, failed, or cancelled by a client that went away).
 */
async function openExport(db: Db, userId: string): Promise<{ document: Document; end: (error?: unknown) => void }> {
  await spendLimits(db, [[LIMITS.accountExportPerUser, userId]]);
  return new Promise((resolve, reject) => {
    let handedOut = false;
    transaction(
      db,
      async (tx) => {
        // transaction() may run this again after the stream failed: nothing is left to read then.
        if (handedOut) return;
        const document = await readAccount(tx, userId);
        handedOut = true;
        await new Promise<void>((finished, failed) =>
          resolve({ document, end: (error) => (error === undefined ? finished() : failed(error)) }),
        );
      },
      SNAPSHOT,
    ).catch(reject);
  });
}

/**
 * How long a download may hold its snapshot: a reader that stops reading without going away would
 * otherwise keep a pooled connection for ever on a long-running server. Under a function's 300 s,
 * which ends a serverless download anyway.
 */
export const EXPORT_MAX_MS = 280_000;

/**
 * The export as the response's body, written while its snapshot is read (the transaction ends
 * with the stream, or after `maxMs`: the rest of the download then fails and the file is cut).
 * On the embedded database the snapshot's one connection is every request's: the document is
 * read whole first, so a slow reader holds nothing but its own copy.
 */
export async function streamAccountExport(
  db: Db,
  userId: string,
  maxMs = EXPORT_MAX_MS,
): Promise<{ exportedAt: string; body: ReadableStream<Uint8Array> }> {
  if (isEmbedded(db)) {
    const whole = await exportAccount(db, userId);
    return { exportedAt: whole.exportedAt, body: jsonStream(whole) };
  }
  const { document, end } = await openExport(db, userId);
  return { exportedAt: document.exportedAt, body: jsonStream(document, undefined, end, AbortSignal.timeout(maxMs)) };
}

/** The export as values, its long lists read whole: for an account known to be small (the tests), or the embedded database's. */
export async function exportAccount(db: Db, userId: string): Promise<Whole<Document>> {
  const { document, end } = await openExport(db, userId);
  try {
    const whole: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(document)) {
      whole[key] = value;
      if (isPages(value)) {
        const items: unknown[] = [];
        for await (const page of value) items.push(...page);
        whole[key] = items;
      }
    }
    end();
    return whole as Whole<Document>;
  } catch (error) {
    end(error);
    throw error;
  }
}

/** The document, in the caller's snapshot `tx`: its long lists are pages, read when iterated. */
async function readAccount(tx: Db, userId: string) {
  const [person] = await tx
    .select({
      ...selfColumns(users),
      latitude: users.latitude,
      longitude: users.longitude,
      registrationType: users.registrationType,
      role: users.role,
      createdAt: users.createdAt,
      updatedAt: users.updatedAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!person) throw userNotFound();
  const [couple] = await tx.select().from(couples).where(partnerOf(userId));
  const partnerId = couple ? (couple.partner1Id === userId ? couple.partner2Id : couple.partner1Id) : null;
  const partnerUser = alias(users, "partner");
  const [partner] = partnerId
    ? await tx.select({ id: partnerUser.id, firstName: partnerUser.firstName }).from(partnerUser).where(eq(partnerUser.id, partnerId))
    : [];

  const locationOwners = [and(eq(locations.entityType, "user"), eq(locations.entityId, userId))];
  if (couple) locationOwners.push(and(eq(locations.entityType, "couple"), eq(locations.entityId, couple.id)));
  const [
    places,
    sessionRows,
    photos,
    sentInvitations,
    blocks,
    filedReports,
    notificationPreferences,
    pushDevices,
    pushChoices,
    readRows,
    sentRequests,
    heldHellos,
    requestAnswers,
    moderationActions,
    ownAppealWords,
    photoVerification,
    planRows,
    drafts,
    onWaitlist,
    notForUs,
  ] = await Promise.all([
    tx
      .select()
      .from(locations)
      .where(or(...locationOwners)),
    // Live and recently ended: a session ended more than ENDED_SESSIONS_KEPT_DAYS ago is deleted (lib/auth/sessions.ts).
    tx
      .select({
        kind: sessions.kind,
        userAgent: sessions.userAgent,
        createdAt: sessions.createdAt,
        lastSeenAt: sessions.lastSeenAt,
        expiresAt: sessions.expiresAt,
        revokedAt: sessions.revokedAt,
      })
      .from(sessions)
      .where(eq(sessions.userId, userId))
      .orderBy(desc(sessions.createdAt)),
    tx.select({ url: forumPhotos.url, createdAt: forumPhotos.createdAt }).from(forumPhotos).where(eq(forumPhotos.ownerUserId, userId)),
    tx
      .select({
        partnerEmail: invitations.partnerEmail,
        partnerFirstName: invitations.partnerFirstName,
        partnerLastName: invitations.partnerLastName,
        createdAt: invitations.createdAt,
        expiresAt: invitations.expiresAt,
        acceptedAt: invitations.acceptedAt,
        revokedAt: invitations.revokedAt,
      })
      .from(invitations)
      .where(eq(invitations.inviterId, userId)),
    couple
      ? tx
          .select({
            blockedCoupleId: coupleBlocks.blockedCoupleId,
            blockedCoupleName: couples.coupleName,
            createdAt: coupleBlocks.createdAt,
          })
          .from(coupleBlocks)
          .innerJoin(couples, eq(couples.id, coupleBlocks.blockedCoupleId))
          .where(eq(coupleBlocks.blockerCoupleId, couple.id))
      : Promise.resolve([]),
    tx
      .select({
        targetType: reports.targetType,
        targetId: reports.targetId,
        reason: reports.reason,
        note: reports.note,
        // Open or closed, as a reporter knows it: what a moderator did about another couple is not theirs to read.
        status: sql<"open" | "closed">`case when ${reports.status} = 'open' then 'open' else 'closed' end`,
        createdAt: reports.createdAt,
      })
      .from(reports)
      .where(eq(reports.reporterUserId, userId)),
    getPreferences(tx, userId),
    devicesForExport(tx, userId),
    getPushChoices(tx, userId),
    ownConversationReads(tx, userId),
    requestsSentBy(tx, userId, couple?.id ?? null),
    heldHellosSentBy(tx, userId, couple?.id ?? null),
    answersBy(tx, userId),
    couple ? ownStanding(tx, couple.id) : Promise.resolve([]),
    appealWordsOf(tx, userId),
    verificationForExport(tx, userId),
    plansForExport(tx, userId),
    couple ? draftsForExport(tx, couple.id) : Promise.resolve([]),
    couple ? isOnWaitlist(tx, couple.id) : Promise.resolve(false),
    couple ? dismissalsForExport(tx, couple.id) : Promise.resolve([]),
  ]);

  // Every page of the long lists, newest first but the messages and message reactions (oldest
  // first), from the indexes named beside them; the URLs of their photos are gathered as they are written.
  const postPhotos: string[] = [];
  const posts = tapped(
    keysetPages(EXPORT_PAGE_SIZE, (after: { id: string } | undefined, size) =>
      tx
        .select({
          id: forumPosts.id,
          scope: forumPosts.scope,
          topic: forumPosts.topic,
          title: forumPosts.title,
          body: forumPosts.body,
          photos: forumPosts.photos,
          place: forumPosts.place,
          createdAt: forumPosts.createdAt,
          editedAt: forumPosts.editedAt,
          deletedAt: forumPosts.deletedAt,
        })
        .from(forumPosts)
        // forum_posts_author_recent_idx
        .where(and(eq(forumPosts.authorUserId, userId), afterRow(forumPosts, after?.id, "desc")))
        .orderBy(...keysetOrder(forumPosts, "desc"))
        .limit(size),
    ),
    (post) => postPhotos.push(...post.photos),
  );
  const replies = keysetPages(EXPORT_PAGE_SIZE, (after: { id: string } | undefined, size) =>
    tx
      .select({
        id: forumReplies.id,
        postId: forumReplies.postId,
        body: forumReplies.body,
        createdAt: forumReplies.createdAt,
        editedAt: forumReplies.editedAt,
        deletedAt: forumReplies.deletedAt,
      })
      .from(forumReplies)
      // forum_replies_author_recent_idx
      .where(and(eq(forumReplies.authorUserId, userId), afterRow(forumReplies, after?.id, "desc")))
      .orderBy(...keysetOrder(forumReplies, "desc"))
      .limit(size),
  );
  const reactions = keysetPages(EXPORT_PAGE_SIZE, (after: { id: string } | undefined, size) =>
    tx
      .select({
        id: forumReactions.id,
        postId: forumReactions.postId,
        replyId: forumReactions.replyId,
        kind: forumReactions.kind,
        createdAt: forumReactions.createdAt,
      })
      .from(forumReactions)
      // forum_reactions_user_created_idx
      .where(and(eq(forumReactions.userId, userId), afterRow(forumReactions, after?.id, "desc")))
      .orderBy(...keysetOrder(forumReactions, "desc"))
      .limit(size),
  );
  const inbox = keysetPages(EXPORT_PAGE_SIZE, (after: { id: string } | undefined, size) =>
    tx
      .select({
        id: notifications.id,
        type: notifications.type,
        title: notifications.title,
        message: notifications.message,
        postId: notifications.postId,
        replyId: notifications.replyId,
        isRead: notifications.isRead,
        createdAt: notifications.createdAt,
      })
      .from(notifications)
      // As the bell lists them (`own`): none from a couple that no longer stands with theirs (a block either way, a suspension).
      // notifications_user_created_idx
      .where(and(own(userId), afterRow(notifications, after?.id, "desc")))
      .orderBy(...keysetOrder(notifications, "desc"))
      .limit(size),
  );
  const messageReactionRows = keysetPages(EXPORT_PAGE_SIZE, (after: { messageId: string; kind: string } | undefined, size) =>
    ownMessageReactions(tx, userId, after, size),
  );
  const messagePhotos: string[] = [];
  const ownMessageRows = tapped(
    keysetPages(EXPORT_PAGE_SIZE, (after: { id: string } | undefined, size) => ownMessages(tx, userId, after?.id, size)),
    (message) => message.photoUrl && messagePhotos.push(message.photoUrl),
  );
  // Read when written, last: after the posts and messages above have been.
  const profilePhotos = [person.avatarUrl, couple?.profileImageUrl ?? null, ...(couple?.photos ?? [])];
  async function* imageUrls() {
    const urls = [...profilePhotos, ...postPhotos, ...photos.map((p) => p.url), ...messagePhotos];
    yield [...new Set(urls.filter((url): url is string => Boolean(url)))];
  }
  return {
    format: "two-of-us-export",
    version: EXPORT_FORMAT_VERSION,
    exportedAt: new Date().toISOString(),
    profile: person,
    couple: couple
      ? {
          id: couple.id,
          coupleName: couple.coupleName,
          bio: couple.bio,
          coupleTypes: couple.coupleTypes,
          interests: couple.interests,
          location: couple.location,
          placeId: couple.placeId,
          profileImageUrl: couple.profileImageUrl,
          photos: couple.photos,
          isVisible: couple.isVisible,
          isVerified: couple.isVerified,
          bothApproveConnections: couple.bothApproveConnections,
          createdAt: couple.createdAt,
          partner: partner ?? null,
        }
      : null,
    locations: places.map((place) => ({
      entityType: place.entityType,
      displayLocation: place.displayLocation,
      latitude: place.latitude,
      longitude: place.longitude,
      city: place.city,
      state: place.state,
      country: place.country,
      countryCode: place.countryCode,
      privacyLevel: place.privacyLevel,
      updatedAt: place.updatedAt,
    })),
    posts,
    replies,
    reactions,
    notifications: inbox,
    notificationPreferences,
    pushDevices,
    pushChoices,
    sessions: sessionRows.map(({ userAgent, ...row }) => ({ ...row, device: describeDevice(userAgent, row.kind), userAgent })),
    invitationsSent: sentInvitations,
    blockedCouples: blocks,
    // The couple's 'Not for us' on discover (either partner's: it is said of the couple).
    discoverNotForUs: notForUs,
    reports: filedReports,
    messages: ownMessageRows,
    messageReactions: messageReactionRows,
    conversationsRead: readRows,
    connectionRequestsSent: sentRequests,
    // Hellos the spam rule holds for a moderator: the couple asked has not seen them.
    connectionRequestsInReview: heldHellos,
    connectionRequestAnswers: requestAnswers,
    plans: planRows,
    eventDrafts: drafts,
    eventsWaitlist: onWaitlist,
    // What moderators did about the couple, by 'a moderator' (never which one), with its appeal;
    // the appeal's words only when the person wrote them (a partner's are the partner's).
    moderationActions: moderationActions.map(({ id, ...action }) => ({
      by: "a moderator",
      ...action,
      yourAppeal: ownAppealWords.get(id) ?? null,
    })),
    // The decision about the person's selfie and its date; the selfie itself is never kept after it.
    photoVerification,
    imageUrls: imageUrls(),
  };
}

export type AccountExport = Whole<Document>;
