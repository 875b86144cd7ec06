import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CoupleSafetyActions } from "@/components/safety/CoupleSafetyActions";
import { PostRow } from "@/components/forum/PostRow";
import { SayHello } from "@/components/messages/SayHello";
import { MetOn } from "@/components/plans/MetOn";
import { CoupleProfileView } from "@/components/profile/CoupleProfileView";
import { connectionStates, stateOf } from "@/lib/connections/states";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { loadCoupleProfile, type CoupleProfile } from "@/lib/couples/queries";
import { canonicalId } from "@/lib/fields";
import { AppError } from "@/lib/errors";
import { listPosts, type ForumPost } from "@/lib/forum/queries";
import { listedPost } from "@/lib/forum/text";
import type { ConnectionState } from "@/lib/connections/rules";
import { metOnWith } from "@/lib/plans/queries";
import { withDb } from "@/lib/with-db";

export const metadata: Metadata = { title: "Couple Profile" };

const RECENT_POSTS = 5;

/**
 * Any couple's full profile as the signed-in user may see it: photos, styles, both
 * partners (first names and ages), the interests Venn, the distance band, their recent forum
 * posts, and 'Say hello' (or where the two couples stand). Hidden, inactive, blocked either way, malformed and missing all read as not found.
 */
export default async function CoupleProfilePage({ params }: { params: Promise<{ coupleId: string }> }) {
  const coupleId = canonicalId((await params).coupleId);
  if (!coupleId) notFound();
  const { userId, couple } = await requireCompleteProfile();
  let profile: CoupleProfile;
  let posts: ForumPost[];
  let connection: ConnectionState;
  let metOn: string | null;
  try {
    [profile, posts, connection, metOn] = await withDb(async (db) => {
      // All read side by side; nothing but the profile leaves unless the viewer may see the couple
      // (loadCoupleProfile answers NOT_FOUND otherwise, and the rest is dropped unread).
      const [found, recent, connections, met] = await Promise.all([
        loadCoupleProfile(db, userId, coupleId),
        listPosts(db, couple, { scope: "global", sort: "new", radius: 50, limit: RECENT_POSTS }, { coupleId }),
        connectionStates(db, couple.coupleId, [coupleId]),
        coupleId === couple.coupleId ? null : metOnWith(db, couple, coupleId),
      ]);
      return [found, recent.data, stateOf(connections, found.id), met] as const;
    });
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
  return (
    <CoupleProfileView
      profile={profile}
      actions={
        profile.isOwn ? undefined : (
          <>
            {metOn && <MetOn date={metOn} />}
            <SayHello coupleId={profile.id} coupleName={profile.coupleName} connection={connection} />
            <CoupleSafetyActions coupleId={profile.id} coupleName={profile.coupleName} viewer={{ userId, coupleId: couple.coupleId }} />
          </>
        )
      }
      recentPosts={posts.map((post) => (
        <PostRow key={post.id} post={listedPost(post)} headingLevel={3} />
      ))}
    />
  );
}
