import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, locations, users } from "@/db/schema";
import { partnerOf } from "@/lib/couples/partner";
import { coupleBadge } from "@/lib/couples/rules";
import { discoverSuggestions, type DiscoverSuggestion } from "@/lib/discover/queries";
import { bandLabel, distanceBand } from "@/lib/discover/rules";
import { AppError } from "@/lib/errors";
import { forumActor, listPosts, type ForumPost } from "@/lib/forum/queries";
import { listPostsQuerySchema } from "@/lib/forum/schemas";
import { pendingInvitation, type PendingInvitation } from "@/lib/invitations/manage";
import { nearby } from "@/lib/locations/nearby";
import { NEARBY_MAX_RADIUS_KM } from "@/lib/locations/schemas";
import { shownCoordinates } from "@/lib/locations/privacy";
import { listNotifications } from "@/lib/notifications/service";
import type { NotificationItem } from "@/lib/notifications/rules";
import { profileCompletion, type Completion } from "./rules";

export const DASHBOARD_COUNTS = { notifications: 5, near: 5, suggestions: 3, posts: 3 } as const;

export type NearCouple = { coupleId: string; coupleName: string; profileImageUrl: string | null; badge: string; location: string; distance: string };

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

async function overview(db: Db, userId: string) {
  const [row] = await db
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
    })
    .from(users)
    .leftJoin(couples, partnerOf(users.id))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", "Account not found");
  return row;
}

/**
 * Up to 5 discoverable couples nearest the viewer's couple's shown place (lib/locations/nearby: privacy
 * levels, blocks and visibility applied there), as bands, never figures. Centred on the couple's
 * own place, so it does not count against the nearby limit (a fixed centre sweeps nothing).
 */
async function nearYou(db: Db, userId: string): Promise<NearCouple[] | null> {
  const [own] = await db
    .select({ lat: locations.latitude, lng: locations.longitude, level: locations.privacyLevel })
    .from(couples)
    .innerJoin(locations, and(eq(locations.entityType, "couple"), eq(locations.entityId, couples.id)))
    .where(partnerOf(userId))
    .limit(1);
  // From the viewer's shown point, as the directory, a profile and discover measure: the same
  // couple reads the same band everywhere. None (hidden, country level): nothing to measure from.
  const centre = own ? shownCoordinates(own.level, own.lat, own.lng) : null;
  if (!centre) return null;
  const entries = await nearby(db, { lat: centre.lat, lng: centre.lng, radius: NEARBY_MAX_RADIUS_KM, limit: DASHBOARD_COUNTS.near }, { userId }, { countAgainstLimit: false });
  if (entries.length === 0) return [];
  const rows = await db
    .select({ id: couples.id, coupleName: couples.coupleName, profileImageUrl: couples.profileImageUrl, status: couples.status, partnerAVerified: couples.partnerAVerified, partnerBVerified: couples.partnerBVerified })
    .from(couples)
    .where(
      inArray(
        couples.id,
        entries.map((entry) => entry.entity_id),
      ),
    );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return entries.flatMap((entry) => {
    const couple = byId.get(entry.entity_id);
    if (!couple) return [];
    const band = distanceBand(entry.distance_km);
    return [
      {
        coupleId: couple.id,
        coupleName: couple.coupleName,
        profileImageUrl: couple.profileImageUrl,
        badge: coupleBadge(couple),
        location: entry.location.display_location,
        distance: band === null ? "Further away" : bandLabel(band),
      },
    ];
  });
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
  const [me, invitation, notifications, near, suggestions, posts] = await Promise.all([
    overview(db, userId),
    pendingInvitation(db, userId),
    listNotifications(db, userId, { limit: DASHBOARD_COUNTS.notifications, offset: 0 }),
    nearYou(db, userId),
    discoverSuggestions(db, userId, DASHBOARD_COUNTS.suggestions),
    latestPosts(db, userId),
  ]);
  const hasCouple = me.status !== null;
  return {
    firstName: me.firstName,
    coupleName: me.coupleName,
    completion: profileCompletion(me, hasCouple ? { status: me.status! } : null),
    invitation: hasCouple && me.partner2Id === null ? invitation : undefined,
    notifications: notifications.data,
    near,
    suggestions,
    ...posts,
  };
}
