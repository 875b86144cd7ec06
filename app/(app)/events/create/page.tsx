import type { Metadata } from "next";
import Link from "next/link";
import { EventForm } from "@/components/events/EventForm";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { EVENT_MESSAGES } from "@/lib/events/rules";
import styles from "@/components/events/events.module.css";

export const metadata: Metadata = { title: "Create an Event" };

/** Drafting a paid event: only couples with can_create_paid_events; everyone else is told it is not for them yet. */
export default async function CreateEventPage() {
  const { couple } = await requireCompleteProfile();
  if (!couple.canCreatePaidEvents) {
    return (
      <main id="main" className="page">
        <h1>Create an Event</h1>
        <section className={styles.hero} aria-labelledby="events-not-available">
          <h2 id="events-not-available">Not available yet</h2>
          <p>{EVENT_MESSAGES.notAllowed} For now, paid events are drafted by a few hosts we work with while we get events ready.</p>
          <p>
            <Link href="/events" className="button button-primary">
              Back to Events
            </Link>
          </p>
        </section>
      </main>
    );
  }
  return (
    <main id="main" className="page">
      <h1>Create an Event</h1>
      <p className="page-lead">Your event is saved as a draft that only the two of you can see, until events launch.</p>
      <EventForm />
    </main>
  );
}
