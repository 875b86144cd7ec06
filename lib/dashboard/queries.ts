import "server-only";
import { desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { preparedPer } from "@/db/prepared";
import { couples, invitations, users } from "@/db/schema";
import type { CoupleCard } from "@/lib/couples/card";
import { partnerOf } from "@/lib/membership/partner";
import { dashboardFinds, type DiscoverSuggestion } from "@/lib/discover/queries";
import { directoryBand } from "@/lib/directory/rules";
import { AppError } from "@/lib/errors";
import { listPosts, type ForumPost } from "@/lib/forum/queries";
import { listPostsQuerySchema } from "@/lib/forum/schemas";
import { pendingColumns, pendingInvitation, waitingOf, type PendingInvitation } from "@/lib/invitations/manage";
import { isFull, partner2, partner2Unproven } from "@/lib/invitations/send";
import { latestNotifications } from "@/lib/notifications/queries";
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
};

/**
 * The user, their couple and, while partner B has not joined, the couple's newest invitation waited
 * on, in one prepared statement (at most one row: the newest invitation first).
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
    })
    .from(users)
    .leftJoin(couples, partnerOf(users.id))
    .leftJoin(partner2, eq(partner2.id, couples.partner2Id))
    .leftJoin(invitations, waitingOf)
    .where(eq(users.id, sql.placeholder("userId")))
    .orderBy(desc(invitations.createdAt))
    .limit(1)
    .prepare("dashboard_overview"),
);

async function overview(db: Db, userId: string) {
  const [row] = await overviewQuery(db).execute({ userId });
  if (!row) throw new AppError("NOT_FOUND", "Account not found");
  return row;
}

/**
 * Suggested couples (3) and up to 5 discoverable couples within 200 km of the viewer's couple's
 * shown place, nearest first, from one read of the couple's stored lists (lib/discover
 * dashboardFinds: the discover ranking and the directory's nearest, eligibility re-checked and
 * distances measured again on every read), as bands, never figures. Near is null when the couple
 * has no place others can measure from (hidden, country level, none): then the card says to set one.
 */
async function finds(db: Db, userId: string): Promise<{ suggestions: DiscoverSuggestion[]; near: NearCouple[] | null }> {
  const { suggestions, near } = await dashboardFinds(db, userId, {
    suggestions: DASHBOARD_COUNTS.suggestions,
    near: DASHBOARD_COUNTS.near,
  });
  return {
    suggestions,
    near: near?.map(({ km, ...card }) => ({ ...card, distance: directoryBand(km)! })) ?? null,
  };
}

/** Read as the user (their couple's blocks and place): the dashboard is only for a complete profile, so no forum actor is looked up first. */
async function latestPosts(db: Db, userId: string): Promise<{ globalPosts: ForumPost[]; localPosts: ForumPost[] | null }> {
  const query = (scope: "global" | "local") => listPostsQuerySchema.parse({ scope, limit: String(DASHBOARD_COUNTS.posts) });
  const [globalPosts, localPosts] = await Promise.all([
    listPosts(db, { userId }, query("global")).then((page) => page.data),
    listPosts(db, { userId }, query("local")).then(
      (page) => page.data,
      (error: unknown) => {
        // No place for the local forum yet: the card says how to set one.
        if (error instanceof AppError && error.code === "LOCATION_REQUIRED") return null;
        throw error;
      },
    ),
  ]);
  return { globalPosts, localPosts };
}

/**
 * Everything the dashboard shows, in one round: the parts run side by side (each part's own
 * look-ups chained inside it), so the page renders on the server without a waterfall.
 */
export async function loadDashboard(db: Db, userId: string): Promise<Dashboard> {
  const [me, notifications, found, posts] = await Promise.all([
    overview(db, userId),
    latestNotifications(db, userId, DASHBOARD_COUNTS.notifications),
    finds(db, userId),
    latestPosts(db, userId),
  ]);
  const hasCouple = me.status !== null;
  return {
    firstName: me.firstName,
    coupleName: me.coupleName,
    welcomedAt: me.welcomedAt,
    completion: profileCompletion(me, hasCouple ? { status: me.status! } : null),
    invitation: hasCouple && !isFull(me) ? me.invitation && pendingInvitation(me.invitation) : undefined,
    notifications: notifications.map(notificationView),
    ...found,
    ...posts,
  };
}
