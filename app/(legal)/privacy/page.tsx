import type { Metadata } from "next";
import Link from "next/link";
import { TrustPage } from "@/components/legal/TrustPage";
import { PRIVACY_LABELS } from "@/lib/locations/privacy";

export const metadata: Metadata = { title: "Privacy notice" };

/** What other couples see at each privacy level (lib/locations/privacy.ts `shownName` and the snapped point). */
const LEVELS = [
  { level: "full", seen: "the place you chose" },
  { level: "city", seen: "your city, region and country, and a point rounded to the city" },
  { level: "region", seen: "your region and country, and a point rounded to the region" },
  { level: "country", seen: "your country only, and no point" },
  { level: "hidden", seen: "nothing: your place is not shown and you are not measured from" },
] as const;

/** What we keep, why, who sees it and how to take it away: for couples trusting us with their photos, place and words. */
export default function PrivacyPage() {
  return (
    <TrustPage title="Privacy notice" lead="What we keep about you and your couple, why, who sees it, and how you take it back.">
      <h2>What we keep</h2>
      <ul>
        <li>
          Your account: e-mail address, first and last name, date of birth (to check you are an adult) and your password, stored only as a
          one-way hash.
        </li>
        <li>Your profile and your couple&apos;s: bio, occupation, interests, adventure styles, the couple&apos;s name and photos.</li>
        <li>Your place, with its coordinates, and the privacy level you chose for it.</li>
        <li>What you write and do: posts, replies, reactions, mentions, reports, blocks, and messages between couples.</li>
        <li>
          Your signed-in devices (the browser&apos;s name and when it was last used), so you can end a session. Your browser keeps a sign-in
          cookie and your theme choice; no advertising or tracking cookies.
        </li>
      </ul>

      <h2>Photos</h2>
      <p>
        We resize every photo you upload and keep only the resized copy. The data cameras hide in photo files (where it was taken, the
        device) is removed before anyone sees it. Deleting a photo, or your account, removes it from storage.
      </p>

      <h2>Your place and who sees it</h2>
      <p>Your partner sees the place you chose. Other couples see it only at your couple&apos;s privacy level:</p>
      <ul>
        {LEVELS.map(({ level, seen }) => (
          <li key={level}>
            <strong>{PRIVACY_LABELS[level]}</strong>: they see {seen}.
          </li>
        ))}
      </ul>
      <p>
        Distances are shown as bands (&lsquo;Within 25 km&rsquo;), never as figures. Couples you block, and couples who block you, see
        nothing of you at all. You change your level at any time in Settings, Location.
      </p>

      <h2>Messages between couples</h2>
      <p>
        A conversation is seen by the four partners of the two couples in it and by nobody else. It opens only when the receiving couple
        accepts.
      </p>

      <h2>E-mails</h2>
      <p>
        We e-mail you to verify your address, to reset or change your password or address, to carry your invitation to your partner, and
        when our moderators act on your couple or lift what they did (these go whatever you chose, as the security ones do). About hellos,
        messages, plans, your partner, photo verification, replies, mentions and reactions we e-mail you when you want us to (Settings,
        Notifications; every such e-mail has an unsubscribe link).
      </p>

      <h2>Who else handles it</h2>
      <p>
        We do not sell or rent your data and show no advertising. Our hosting, our e-mail provider and, where we use it, the map and place
        search service handle data only to run Two of Us for us.
      </p>

      <h2>Your choices</h2>
      <ul>
        <li>Correct your details at any time in Settings.</li>
        <li>Download everything we keep about you and your couple in Settings, Data.</li>
        <li>
          Delete your account in Settings, Data: see <Link href="/terms">Terms, Leaving</Link> for what is erased and what stays.
        </li>
      </ul>
    </TrustPage>
  );
}
