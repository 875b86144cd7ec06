import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { InviteCard, InviteLead } from "@/components/invitations/InviteCard";
import { PartnerSetupForm } from "@/components/invitations/PartnerSetupForm";
import { requireSignedIn } from "@/lib/auth/current-session";
import { postAuthDestination } from "@/lib/auth/guard";
import { partnerSetupView } from "@/lib/invitations/complete-registration";
import { withDb } from "@/lib/with-db";
import styles from "./page.module.css";

export const metadata: Metadata = { title: "Welcome to your couple" };

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Partner B's short set-up: their own details; the couple profile is partner A's work already. */
export default async function PartnerSetupPage() {
  const flags = await requireSignedIn();
  const view = await withDb((db) => partnerSetupView(db, flags.userId));
  // Only a partner who joined by invitation has this step.
  if (!view) redirect(postAuthDestination(flags));
  const { me } = view;
  return (
    <InviteCard labelledBy="partner-setup-title">
      <h1 id="partner-setup-title">Welcome to {view.coupleName}!</h1>
      <InviteLead>
        {view.partnerFirstName} already set up most of your couple profile. Add a few details about yourself and you&apos;re in.
      </InviteLead>
      <section className={styles.done} aria-labelledby="setup-done-title">
        <h2 id="setup-done-title" className={styles.title}>
          Already set up by {view.partnerFirstName}
        </h2>
        <ul>
          <li>Couple name: {view.coupleName}</li>
          <li>Location: {view.location ?? "not set yet"}</li>
          <li>
            Interests and preferences: {count(view.interestCount, "interest", "interests")},{" "}
            {count(view.coupleTypeCount, "adventure style", "adventure styles")}
          </li>
          <li>Couple photos: {count(view.photoCount, "photo", "photos")}</li>
        </ul>
      </section>
      <PartnerSetupForm
        defaults={{ firstName: me.firstName, lastName: me.lastName, dateOfBirth: me.dateOfBirth, occupation: me.occupation ?? "" }}
      />
    </InviteCard>
  );
}
