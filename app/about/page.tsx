import type { Metadata } from "next";
import Link from "next/link";
import { Screenshot } from "@/components/about/Screenshot";
import { TrustPage } from "@/components/legal/TrustPage";
import { INVITATION_VALID_DAYS } from "@/lib/invitations/rules";
import styles from "@/components/about/About.module.css";

export const metadata: Metadata = {
  title: "About",
  description:
    "Two of Us is for couples without children who want to meet other couples: what you do here, how partners join, what stays private.",
};

/**
 * The front door for a visitor (linked from /login and /register, which stays the first page): what
 * couples do here, how partners join, what is private, where the guidelines are, and two pictures
 * of the app made from the demo couples (public/screenshots, written by scripts/about-screenshots.ts).
 * Public and prerendered: it reads nothing from the request.
 */
export default function AboutPage() {
  return (
    <TrustPage
      title="About Two of Us"
      lead="Two of Us is for couples without children who want to meet other couples: near home for a hike or a dinner, or anywhere to swap travel tips. It is in beta."
      dated={false}
    >
      <h2>What couples do here</h2>
      <ul>
        <li>Find couples in the directory by distance, interests and adventure styles; Discover suggests the ones you share most with.</li>
        <li>
          Say hello with a short note. A conversation opens only when the other couple accepts, and all four partners write in it together.
        </li>
        <li>Talk in the forum: Global for every couple, Local for couples near you.</li>
        <li>Events in real life are coming soon.</li>
      </ul>
      <div className={styles.shots}>
        <Screenshot
          src="/screenshots/directory.webp"
          alt="The directory on a phone: couples near Lisbon, each with their picture, name, badge, distance, place, interests in common and a Say hello button."
          caption="The directory: couples near you and what you share."
        />
        <Screenshot
          src="/screenshots/conversation.webp"
          alt="A conversation on a phone between Marisol & Thaddeus and Ines & Rafael: all four write in one thread, planning a walk in Sintra."
          caption="A conversation: the four of you in one thread."
        />
      </div>

      <h2>How partners join</h2>
      <ol>
        <li>One of you creates an account, confirms the e-mail address and sets up your profile and your couple&apos;s.</li>
        <li>
          That partner invites the other by e-mail. The invitation link works for {INVITATION_VALID_DAYS} days; your partner chooses their
          own password and signs in with their own e-mail.
        </li>
        <li>
          Other couples can find you as soon as the first partner has finished. When both of you have joined and confirmed your e-mails,
          your couple shows the &lsquo;Verified Couple&rsquo; badge.
        </li>
      </ol>

      <h2>What is private</h2>
      <ul>
        <li>Other couples see your first names and ages, never your last names, e-mail addresses or dates of birth.</li>
        <li>
          Your place is shown only as precisely as your couple chooses, from the exact place to your country or not at all; distances read
          as bands (&lsquo;Within 25 km&rsquo;), never as figures.
        </li>
        <li>A conversation is seen by the four partners in it and nobody else.</li>
        <li>No advertising, and your data is never sold.</li>
      </ul>
      <p>
        The <Link href="/privacy">privacy notice</Link> says what we keep and how you take it back.
      </p>

      <h2>Staying safe</h2>
      <p>
        Report or block any couple from the ⋯ menu on their profile, posts, replies and messages; once you block a couple, neither of you
        sees the other anywhere. Our moderators read every report. The <Link href="/guidelines">community guidelines</Link> say what is
        welcome and what is removed.
      </p>

      <p className={styles.start}>
        <Link href="/register" className="button button-primary">
          Create your account
        </Link>
        <Link href="/login" className="button button-secondary">
          Sign in
        </Link>
      </p>
    </TrustPage>
  );
}
