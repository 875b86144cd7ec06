import "server-only";
import { and, count, desc, eq, max, sql, type Placeholder, type SQL } from "drizzle-orm";
import { jsonArray, keyedFields } from "@/db/json";
import type { Db } from "@/db/client";
import { placeholderSql, preparedPer } from "@/db/prepared";
import { couples, notifications, users } from "@/db/schema";
import { coupleOfUser } from "@/lib/safety/blocks";
import { seenByViewer, standTogether } from "@/lib/safety/visibility";
import type { NotificationItem, NotificationKind, Pagination } from "./rules";
import type { ListQuery } from "./schemas";

/**
 * The user's notifications, without those from a couple that no longer stands with theirs
 * (`standTogether`, lib/safety/visibility.ts: blocked either way, or suspended or banned), as their
 * pushes and e-mails are withheld. A lifted block or suspension brings them back. A couple hidden
 * from the directory still stands: its notices stay, neither named nor pictured (`seenByViewer`).
 */
export const own = (userId: string | SQL) =>
  and(eq(notifications.userId, userId), standTogether(coupleOfUser(userId), notifications.actorCoupleId))!;
/** In a literal, the partial indexes' predicate: a prepared statement's generic plan cannot prove it over a bound value. */
export const unread = sql`${notifications.isRead} = false`;

/**
 * A page of the user's notifications, newest first (ties broken by id, so pages never overlap),
 * with the actor's picture and couple name joined in the same query: no query per row. The page
 * is chosen first (notifications_user_created_idx read backwards, stopping after it) and only its
 * rows are joined to their actors: joined before the limit, the planner could hash every couple
 * for all of a person's rows on a small table (the messages bench: 30 ms at 100,000 couples and
 * 20,000 notifications, against 3 ms at 20M).
 */
const newestOwn = (db: Db, userId: string | SQL, limit: number | Placeholder, offset: number | Placeholder = 0, keyed = false) => {
  const page = db
    .select({
      id: notifications.id,
      type: notifications.type,
      title: notifications.title,
      message: notifications.message,
      isRead: notifications.isRead,
      createdAt: notifications.createdAt,
      postId: notifications.postId,
      replyId: notifications.replyId,
      conversationId: notifications.conversationId,
      actorUserId: notifications.actorUserId,
      actorCoupleId: notifications.actorCoupleId,
    })
    .from(notifications)
    .where(own(userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit)
    .offset(offset)
    .as("page");
  const viewerCouple = coupleOfUser(userId);
  const byPartner = sql<boolean>`coalesce(${page.actorCoupleId} = ${viewerCouple}, false)`;
  // A couple that hid since is pictured and named no more (lib/safety/visibility.ts); a suspended one's rows are gone (`own`).
  const seen = seenByViewer(viewerCouple);
  const fields = {
    id: page.id,
    type: page.type,
    title: page.title,
    message: page.message,
    isRead: page.isRead,
    createdAt: page.createdAt,
    postId: page.postId,
    replyId: page.replyId,
    conversationId: page.conversationId,
    // The couple's picture stands for another couple (a partner's own avatar when it has none);
    // the reader's own partner is shown by their face, as their couple's picture is the reader's too.
    actorImage: sql<string | null>`case when not ${seen} then null
        when ${byPartner} then coalesce(${users.avatarUrl}, ${couples.profileImageUrl})
        else coalesce(${couples.profileImageUrl}, ${users.avatarUrl}) end`,
    actorCoupleName: sql<string | null>`case when ${seen} then ${couples.coupleName} end`,
    actorIsPartner: byPartner,
  };
  // Keyed: the same rows named for a JSON read (newestOwnSql).
  return db
    .select(keyed ? keyedFields(fields) : fields)
    .from(page)
    .leftJoin(users, eq(users.id, page.actorUserId))
    .leftJoin(couples, eq(couples.id, page.actorCoupleId))
    .orderBy(desc(page.createdAt), desc(page.id));
};

type OwnRow = Awaited<ReturnType<typeof newestOwn>>[number];

/** The JSON rows `newestOwnSql` answers: a row of `newestOwn` by its keys, its time as JSON writes it. */
export type NotificationsJson = (Omit<OwnRow, "createdAt"> & { createdAt: string })[];

/**
 * SQL: the user's newest `limit` notifications (the same read as latestNotifications, newest
 * first) as one JSON array, for a statement that reads them beside something else: the
 * dashboard's overview (lib/dashboard/queries.ts).
 */
export const newestOwnSql = (db: Db, userId: SQL, limit: number): SQL<NotificationsJson> => {
  const keyed = newestOwn(db, userId, limit, 0, true);
  return jsonArray<NotificationsJson[number]>(keyed, sql`t."createdAt" desc, t.id desc`, true);
};

/** What `newestOwnSql` read, as latestNotifications answers it. */
export const newestOwnOf = (rows: NotificationsJson): NotificationItem[] =>
  rows.map((row) => item({ ...row, createdAt: new Date(row.createdAt) }));

function item(row: OwnRow): NotificationItem {
  return {
    id: row.id,
    // Written only through the sender, which takes a defined type.
    type: row.type as NotificationKind,
    title: row.title,
    message: row.message,
    content_snippet: row.message,
    is_read: row.isRead,
    created_at: row.createdAt.toISOString(),
    post_id: row.postId,
    reply_id: row.replyId,
    conversation_id: row.conversationId,
    actor_profile_image_url: row.actorImage,
    actor_couple_name: row.actorCoupleName,
    triggered_by_couple_name: row.actorCoupleName,
    actor_is_partner: row.actorIsPartner,
  };
}

/**
 * Prepared (named statements), as planning them took four times as long as running them (0.55 ms
 * against 0.12 ms for a page, 0.26 against 0.07 for a count, at 200,000 notifications).
 */
const pageOfOwn = preparedPer((db) =>
  newestOwn(db, placeholderSql("userId"), sql.placeholder("limit"), sql.placeholder("offset")).prepare("notifications_page"),
);
/** The total, and the list's newest created_at: what 'Mark all as read' marks up to, on any page (Pagination.newestAt). */
const totalOfOwn = preparedPer((db) =>
  db
    .select({ total: count(), newest: max(notifications.createdAt) })
    .from(notifications)
    .where(own(placeholderSql("userId")))
    .prepare("notifications_total"),
);
const unreadOfOwn = preparedPer((db) =>
  db
    .select({ unread: count() })
    .from(notifications)
    .where(and(own(placeholderSql("userId")), unread))
    .prepare("notifications_unread"),
);

/** A page of the user's notifications with the total (the API's pagination); both follow notifications_user_created_idx. */
export async function listNotifications(
  db: Db,
  userId: string,
  query: ListQuery,
): Promise<{ data: NotificationItem[]; pagination: Pagination }> {
  const [rows, [totals]] = await Promise.all([
    pageOfOwn(db).execute({ userId, limit: query.limit, offset: query.offset }),
    totalOfOwn(db).execute({ userId }),
  ]);
  const total = totals?.total ?? 0;
  return {
    data: rows.map(item),
    pagination: {
      limit: query.limit,
      offset: query.offset,
      total,
      hasMore: query.offset + rows.length < total,
      newestAt: totals?.newest?.toISOString() ?? null,
    },
  };
}

const latest = preparedPer((db) => newestOwn(db, placeholderSql("userId"), sql.placeholder("limit")).prepare("latest_notifications"));

/** The user's newest notifications without a total (the dashboard's card): one prepared statement. */
export async function latestNotifications(db: Db, userId: string, limit: number): Promise<NotificationItem[]> {
  return (await latest(db).execute({ userId, limit })).map(item);
}

/** The badge's number: one count over the partial index of unread rows, however many there are. */
export async function unreadCount(db: Db, userId: string): Promise<number> {
  const [row] = await unreadOfOwn(db).execute({ userId });
  return row?.unread ?? 0;
}
