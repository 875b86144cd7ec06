import type { Metadata } from "next";
import Link from "next/link";
import { DraftList } from "@/components/events/DraftList";
import { WaitlistButton } from "@/components/events/WaitlistButton";
import { Alert } from "@/components/ui/Alert";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { isOnWaitlist, listDrafts } from "@/lib/events/service";
import { EVENTS_COMING_SOON_TEXT, EVENTS_COMING_SOON_TITLE } from "@/lib/events/coming-soon";
import { withDb } from "@/lib/with-db";
import styles from "@/components/events/events.module.css";

export const metadata: Metadata = { title: "Events" };

/** IRL events are coming: what they will be, 'Notify us', and a flagged couple's drafts. */
export default async function EventsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const drafted = (await searchParams).drafted === "1";
  const { couple } = await requireCompleteProfile();
  const [onWaitlist, drafts] = await withDb((db) => Promise.all([isOnWaitlist(db, couple.coupleId), listDrafts(db, couple)]));
  return (
    <main id="main" className="page">
      <h1>Events</h1>
      {drafted && <Alert tone="success">Your event is saved as a draft. Only the two of you can see it.</Alert>}
      <section className={styles.hero} aria-labelledby="events-coming">
        <h2 id="events-coming">{EVENTS_COMING_SOON_TITLE}</h2>
        <p>{EVENTS_COMING_SOON_TEXT}</p>
        <p>What is coming:</p>
        <ul className={styles.coming}>
          <li>Small get-togethers for couples near you: dinners, tastings, walks and game nights.</li>
          <li>Events hosted by couples from the community, with a set number of places.</li>
          <li>Booking and paying for a place for the two of you in one step.</li>
        </ul>
        <WaitlistButton done={onWaitlist} />
      </section>

      {(couple.canCreatePaidEvents || drafts.data.length > 0) && (
        <section className={styles.section} aria-labelledby="events-drafts">
          <h2 id="events-drafts">Your drafts</h2>
          {drafts.data.length === 0 ? (
            <p className={styles.empty}>No drafts yet. Draft your first event now; it stays private until events launch.</p>
          ) : (
            <DraftList page={drafts} />
          )}
          {couple.canCreatePaidEvents && (
            <p>
              <Link href="/events/create" className="button button-primary">
                Create an event
              </Link>
            </p>
          )}
        </section>
      )}
    </main>
  );
}
