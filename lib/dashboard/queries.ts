import "server-only";
import { desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { placeholderSql, preparedPer } from "@/db/prepared";
import { couples, invitations, users } from "@/db/schema";
import type { CoupleCard } from "@/lib/couples/card";
import { partnerOf } from "@/lib/membership/partner";
import { dashboardCards, readDashboardLists, type DashboardLists, type DiscoverSuggestion } from "@/lib/discover/queries";
import { directoryBand } from "@/lib/directory/rules";
import { AppError } from "@/lib/errors";
import { listPosts, type ForumPost } from "@/lib/forum/queries";
import { listPostsQuerySchema } from "@/lib/forum/schemas";
import { cityLevelPlace } from "@/lib/forum/place";
import type { ListedPlace } from "@/lib/locations/privacy";
import { upcomingPlansOf, upcomingPlansSql, type PlanItem } from "@/lib/plans/queries";
import { pendingColumns, pendingInvitation, waitingOf, type PendingInvitation } from "@/lib/invitations/manage";
import { isFull, partner2, partner2Unproven } from "@/lib/invitations/send";
import { newestOwnOf, newestOwnSql } from "@/lib/notifications/queries";
import { notificationView, type NotificationView } from "@/lib/notifications/rules";
import { profileCompletion, type Completion } from "./rules";

export const DASHBOARD_COUNTS = { notifications: 5, near: 5, suggestions: 3, posts: 3 } as const;

export type NearCouple = CoupleCard & { distance: string };

export type Dashboard = {
  firstName: string;
  coupleName: string | null;
  /** The person's first dashboard visit; null while this is it (lib/dashboard/service.ts records it). */
  welcomedAt: Date | null;
  completion: Completion;
  /** Partner B has not joined (or not proved the address): the invitation waited on, or null (then 'Invite Your Partner'). Undefined once both are in. */
  invitation: PendingInvitation | null | undefined;
  notifications: NotificationView[];
  /** Null when the couple has no place others can measure from (then the card says to set one). */
  near: NearCouple[] | null;
  suggestions: DiscoverSuggestion[];
  globalPosts: ForumPost[];
  /** Null when the couple has no place for the local forum. */
  localPosts: ForumPost[] | null;
  /** The couple's upcoming plans (lib/plans/queries.ts upcomingPlans). */
  upcoming: PlanItem[];
};

const USER = placeholderSql("userId");

/**
 * The user, their couple and, while partner B has not joined, the couple's newest invitation waited
 * on, with the user's newest notifications and the couple's upcoming plans (each as JSON, the
 * same reads as the bell's list and the plans' list), in one prepared statement (at most one row:
 * the newest invitation first): each statement costs the server its own write and read.
 */
const overviewQuery = preparedPer((db) =>
  db
    .select({
      firstName: users.firstName,
      lastName: users.lastName,
      dateOfBirth: users.dateOfBirth,
      bio: users.bio,
      interests: users.interests,
      avatarUrl: users.avatarUrl,
      welcomedAt: users.welcomedAt,
      coupleName: couples.coupleName,
      status: couples.status,
      partner2Id: couples.partner2Id,
      partner2Unproven,
      invitation: pendingColumns,
      notifications: newestOwnSql(db, USER, DASHBOARD_COUNTS.notifications),
      // The couple of this row (none: no plans), read by the plans' own statement.
      upcoming: upcomingPlansSql(db, sql`${couples.id}`, sql.placeholder("now")),
    })
    .from(users)
    .leftJoin(couples, partnerOf(users.id))
    .leftJoin(partner2, eq(partner2.id, couples.partner2Id))
    .leftJoin(invitations, waitingOf)
    .where(eq(users.id, USER))
    .orderBy(desc(invitations.createdAt))
    .limit(1)
    .prepare("dashboard_overview"),
);

async function overview(db: Db, userId: string, now: Date) {
  const [row] = await overviewQuery(db).execute({ userId, now: now.toISOString() });
  if (!row) throw new AppError("NOT_FOUND", "Account not found");
  return row;
}

/**
 * Suggested couples (3) and up to 5 discoverable couples within 200 km of the viewer's couple's
 * shown place, nearest first, from one read of the couple's stored lists (lib/discover
 * readDashboardLists: the discover ranking and the directory's nearest, eligibility re-checked and
 * distances measured again on every read), as bands, never figures. Near is null when the couple
 * has no place others can measure from (hidden, country level, none): then the card says to set one.
 */
async function finds(db: Db, lists: DashboardLists) {
  const { suggestions, near } = await dashboardCards(db, lists);
  return {
    suggestions,
    near: near?.map(({ km, ...card }) => ({ ...card, distance: directoryBand(km)! })) ?? null,
  };
}

const postsQuery = (scope: "global" | "local") => listPostsQuerySchema.parse({ scope, limit: String(DASHBOARD_COUNTS.posts) });

/** Read as the user (their couple's blocks): the dashboard is only for a complete profile, so no forum actor is looked up first. */
const globalPosts = async (db: Db, userId: string): Promise<ForumPost[]> => (await listPosts(db, { userId }, postsQuery("global"))).data;

/** Around the couple's place (`place`: as the stored lists' read found it, so it is not read again); null when there is none for the local forum. */
async function localPosts(db: Db, userId: string, place: ListedPlace | null): Promise<ForumPost[] | null> {
  try {
    return (await listPosts(db, { userId, place: place && cityLevelPlace(place) }, postsQuery("local"))).data;
  } catch (error) {
    // No place for the local forum yet: the card says how to set one.
    if (error instanceof AppError && error.code === "LOCATION_REQUIRED") return null;
    throw error;
  }
}

/**
 * Everything the dashboard shows, in one round: the parts run side by side (each part's own
 * look-ups chained inside it: the cards' connections and the local posts, both after the stored
 * lists' read, which found the couple's place, side by side; the plans' people and answers, when
 * there are plans, after the overview), so the page renders on the server without a waterfall.
 */
export async function loadDashboard(db: Db, userId: string, now = new Date()): Promise<Dashboard> {
  const read = overview(db, userId, now);
  const lists = readDashboardLists(db, userId, { suggestions: DASHBOARD_COUNTS.suggestions, near: DASHBOARD_COUNTS.near }, now);
  const [me, upcoming, cards, global, local] = await Promise.all([
    read,
    read.then((row) => upcomingPlansOf(db, row.upcoming, { userId }, now)),
    lists.then((found) => finds(db, found)),
    globalPosts(db, userId),
    lists.then(({ place }) => localPosts(db, userId, place)),
  ]);
  const hasCouple = me.status !== null;
  return {
    firstName: me.firstName,
    coupleName: me.coupleName,
    welcomedAt: me.welcomedAt,
    completion: profileCompletion(me, hasCouple ? { status: me.status! } : null),
    invitation: hasCouple && !isFull(me) ? me.invitation && pendingInvitation(me.invitation) : undefined,
    notifications: newestOwnOf(me.notifications).map(notificationView),
    upcoming,
    ...cards,
    globalPosts: global,
    localPosts: local,
  };
}
