import "server-only";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { preparedPer } from "@/db/prepared";
import { couples, invitations, users } from "@/db/schema";
import { partnerOf } from "@/lib/couples/partner";
import { viewerCouple } from "@/lib/couples/queries";
import { discoverSuggestions, type DiscoverSuggestion } from "@/lib/discover/queries";
import { listDirectory, viewerCentre } from "@/lib/directory/queries";
import { directoryQuerySchema } from "@/lib/directory/schemas";
import { AppError } from "@/lib/errors";
import { forumActor, listPosts, type ForumPost } from "@/lib/forum/queries";
import { listPostsQuerySchema } from "@/lib/forum/schemas";
import { openOf, pendingColumns, pendingInvitation, type PendingInvitation } from "@/lib/invitations/manage";
import { NEARBY_MAX_RADIUS_KM } from "@/lib/locations/schemas";
import { latestNotifications } from "@/lib/notifications/service";
import type { NotificationItem } from "@/lib/notifications/rules";
import { profileCompletion, type Completion } from "./rules";

export const DASHBOARD_COUNTS = { notifications: 5, near: 5, suggestions: 3, posts: 3 } as const;

export type NearCouple = { coupleId: string; coupleName: string; profileImageUrl: string | null; badge: string; location: string | null; distance: string };

export type Dashboard = {
  firstName: string;
  coupleName: string | null;
  completion: Completion;
  /** Partner B has not joined: the open invitation, or null (then 'Invite Your Partner'). Undefined once both are in. */
  invitation: PendingInvitation | null | undefined;
  notifications: NotificationItem[];
  /** Null when the couple has no place others can measure from (then the card says to set one). */
  near: NearCouple[] | null;
  suggestions: DiscoverSuggestion[];
  globalPosts: ForumPost[];
  /** Null when the couple has no place for the local forum. */
  localPosts: ForumPost[] | null;
};

/**
 * The user, their couple and, while partner B has not joined, the couple's newest open invitation,
 * in one prepared statement (at most one row: the newest invitation first).
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
      coupleName: couples.coupleName,
      status: couples.status,
      partner2Id: couples.partner2Id,
      invitation: pendingColumns,
    })
    .from(users)
    .leftJoin(couples, partnerOf(users.id))
    .leftJoin(invitations, and(isNull(couples.partner2Id), openOf(couples.id)))
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
 * Up to 5 discoverable couples within 200 km of the viewer's couple's shown place, nearest first:
 * the directory's nearest sort (its KNN walk; privacy levels, blocks and visibility applied
 * there), as bands, never figures. Null when the couple has no place others can measure from
 * (hidden, country level, none): then the card says to set one.
 */
async function nearYou(db: Db, userId: string): Promise<NearCouple[] | null> {
  const viewer = await viewerCouple(db, userId);
  if (!viewerCentre(viewer)) return null;
  const query = directoryQuerySchema.parse({ sort: "nearest", distance: String(NEARBY_MAX_RADIUS_KM), limit: String(DASHBOARD_COUNTS.near) });
  const page = await listDirectory(db, userId, query, { viewer });
  return page.data.map((card) => ({
    coupleId: card.id,
    coupleName: card.coupleName,
    profileImageUrl: card.profileImageUrl,
    badge: card.badge,
    location: card.location,
    // 'within 10 km' as the card's label 'Within 10 km'.
    distance: card.distanceBand ? card.distanceBand.charAt(0).toUpperCase() + card.distanceBand.slice(1) : "Further away",
  }));
}

async function latestPosts(db: Db, userId: string): Promise<{ globalPosts: ForumPost[]; localPosts: ForumPost[] | null }> {
  const actor = await forumActor(db, userId);
  const query = (scope: "global" | "local") => listPostsQuerySchema.parse({ scope, limit: String(DASHBOARD_COUNTS.posts) });
  const [globalPosts, localPosts] = await Promise.all([
    listPosts(db, actor, query("global")).then((page) => page.data),
    listPosts(db, actor, query("local")).then(
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
  const [me, notifications, near, suggestions, posts] = await Promise.all([
    overview(db, userId),
    latestNotifications(db, userId, DASHBOARD_COUNTS.notifications),
    nearYou(db, userId),
    discoverSuggestions(db, userId, DASHBOARD_COUNTS.suggestions),
    latestPosts(db, userId),
  ]);
  const hasCouple = me.status !== null;
  return {
    firstName: me.firstName,
    coupleName: me.coupleName,
    completion: profileCompletion(me, hasCouple ? { status: me.status! } : null),
    invitation: hasCouple && me.partner2Id === null ? me.invitation && pendingInvitation(me.invitation) : undefined,
    notifications,
    near,
    suggestions,
    ...posts,
  };
}
