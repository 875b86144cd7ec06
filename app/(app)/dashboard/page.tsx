import type { Metadata } from "next";
import Link from "next/link";
import { InvitationCard } from "@/components/dashboard/InvitationCard";
import { RecentNotifications } from "@/components/dashboard/RecentNotifications";
import styles from "@/components/dashboard/dashboard.module.css";
import { SuggestionCard, SuggestionGrid } from "@/components/discover/SuggestionCard";
import { SayHello } from "@/components/messages/SayHello";
import { UpcomingPlans } from "@/components/plans/UpcomingPlans";
import { Alert } from "@/components/ui/Alert";
import { FacePhoto } from "@/components/ui/FacePhoto";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { loadCoupleProfile } from "@/lib/couples/queries";
import { DASHBOARD_COUNTS, loadDashboard } from "@/lib/dashboard/queries";
import { greeting } from "@/lib/dashboard/rules";
import { dashboardQuerySchema } from "@/lib/dashboard/schemas";
import { recordWelcome } from "@/lib/dashboard/service";
import type { ForumPost } from "@/lib/forum/queries";
import { upcomingPlan } from "@/lib/plans/view";
import { withDb } from "@/lib/with-db";

export const metadata: Metadata = { title: "Dashboard" };

/** Its rows' links are not prefetched, as the forum's (PostRow): a thread is rendered per request. */
function PostList({ posts, id }: { posts: ForumPost[]; id: string }) {
  return (
    <ul className={styles.list} aria-labelledby={id}>
      {posts.map((post) => (
        <li key={post.id} className={styles.withFace}>
          <FacePhoto src={post.author.coupleImageUrl} size={40} className={styles.face} lazy />
          <Link href={`/forum/post/${encodeURIComponent(post.id)}`} prefetch={false}>
            {post.title}
          </Link>
          <span className={`muted ${styles.meta}`}>{post.author.coupleName ?? post.author.signature}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * The home of a signed-in couple, rendered on the server from one round of queries
 * (lib/dashboard/queries loadDashboard); every card says what to do when it is empty.
 */
export default async function DashboardPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { welcome } = dashboardQuerySchema.parse(await searchParams);
  const { userId } = await requireCompleteProfile();
  const [dashboard, couple, welcomedAt] = await withDb(async (db) => {
    const [loaded, profile] = await Promise.all([loadDashboard(db, userId), welcome ? loadCoupleProfile(db, userId) : null]);
    return [loaded, profile, loaded.welcomedAt ?? (await recordWelcome(db, userId))] as const;
  });
  const { completion, upcoming } = dashboard;
  const partner = couple?.partners.find((person) => person.id !== userId);
  return (
    <main id="main" className="page">
      <h1>{`${greeting(welcomedAt, new Date())}, ${dashboard.coupleName ?? dashboard.firstName}!`}</h1>
      {couple && (
        <Alert tone="success">
          <strong>Welcome to {couple.coupleName}!</strong> You and {partner?.firstName ?? "your partner"} are all set, and your couple
          profile is ready: <Link href="/profile">see your couple profile</Link>.
        </Alert>
      )}
      <div className={styles.grid}>
        {upcoming.length > 0 && (
          <div className={styles.card}>
            <UpcomingPlans initial={upcoming.map(upcomingPlan)} />
          </div>
        )}
        <section className={styles.card} aria-labelledby="dashboard-completion">
          <h2 id="dashboard-completion">Profile {completion.percentage}% complete</h2>
          <progress className={styles.meter} max={100} value={completion.percentage} aria-label="Profile completion">
            {completion.percentage}%
          </progress>
          {completion.complete ? (
            <p className={styles.empty}>Your profile is complete. Keep it fresh: couples read it before they say hello.</p>
          ) : (
            <ul className={styles.list} aria-label="Still missing">
              {completion.missing.map((step) => (
                <li key={step.label}>
                  {step.label} (+{step.points}%): <Link href={step.fix.href}>{step.fix.text}</Link>
                </li>
              ))}
            </ul>
          )}
        </section>

        {dashboard.invitation !== undefined && <InvitationCard invitation={dashboard.invitation} />}

        <RecentNotifications initial={dashboard.notifications} limit={DASHBOARD_COUNTS.notifications} />

        <section className={styles.card} aria-labelledby="dashboard-near">
          <h2 id="dashboard-near">Couples near you</h2>
          {dashboard.near === null ? (
            <LocationNeeded to="see couples near you" />
          ) : dashboard.near.length === 0 ? (
            <p className={styles.empty}>
              No couples within 200 km yet. <Link href="/directory">Browse the directory</Link> to find couples further away.
            </p>
          ) : (
            <ul className={styles.list}>
              {dashboard.near.map((near) => (
                <li key={near.coupleId} className={styles.withFace}>
                  <FacePhoto src={near.profileImageUrl} size={40} className={styles.face} lazy />
                  {/* Not prefetched, as the directory's cards (CoupleCard). */}
                  <Link href={`/profile/${encodeURIComponent(near.coupleId)}`} prefetch={false}>
                    {near.coupleName}
                  </Link>
                  <span className={`muted ${styles.meta}`}>
                    {near.distance}
                    {near.location ? ` · ${near.location}` : ""}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section className={`${styles.card} ${styles.wide}`} aria-labelledby="dashboard-suggestions">
          <h2 id="dashboard-suggestions">Suggested couples</h2>
          {dashboard.suggestions.length === 0 ? (
            <p className={styles.empty}>
              No suggestions yet. Add interests and adventure styles to your profile, then <Link href="/discover">visit Discover</Link>.
            </p>
          ) : (
            <SuggestionGrid>
              {dashboard.suggestions.map((suggestion) => (
                <li key={suggestion.coupleId}>
                  <SuggestionCard suggestion={suggestion} headingLevel={3}>
                    <SayHello coupleId={suggestion.coupleId} coupleName={suggestion.coupleName} connection={suggestion.connection} />
                  </SuggestionCard>
                </li>
              ))}
            </SuggestionGrid>
          )}
          <p className={styles.more}>
            <Link href="/discover">See all suggestions</Link>
          </p>
        </section>

        <section className={styles.card} aria-labelledby="dashboard-global">
          <h2 id="dashboard-global">Latest in the global forum</h2>
          {dashboard.globalPosts.length === 0 ? (
            <p className={styles.empty}>
              No posts yet. <Link href="/forum">Start the first conversation</Link>.
            </p>
          ) : (
            <PostList posts={dashboard.globalPosts} id="dashboard-global" />
          )}
        </section>

        <section className={styles.card} aria-labelledby="dashboard-local">
          <h2 id="dashboard-local">Latest near you</h2>
          {dashboard.localPosts === null ? (
            <LocationNeeded to="read the local forum" />
          ) : dashboard.localPosts.length === 0 ? (
            <p className={styles.empty}>
              No local posts yet. <Link href="/forum/local">Say hello to couples nearby</Link>.
            </p>
          ) : (
            <PostList posts={dashboard.localPosts} id="dashboard-local" />
          )}
        </section>
      </div>
    </main>
  );
}

/** What a section that depends on distance says while the couple has set no location. */
function LocationNeeded({ to }: { to: string }) {
  return (
    <p className={styles.empty}>
      Set your couple&apos;s location to {to}: <Link href="/settings">add your location</Link>.
    </p>
  );
}
