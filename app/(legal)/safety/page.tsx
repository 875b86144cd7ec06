import type { Metadata } from "next";
import Link from "next/link";
import { TrustPage } from "@/components/legal/TrustPage";
import { SuspendedAppealForm } from "@/components/moderation/SuspendedAppealForm";
import { APPEAL_MAX, RESTRICT_DAYS } from "@/lib/safety/rules";

export const metadata: Metadata = { title: "Safety" };

/** Public: meeting other couples in person safely, reporting and blocking, what moderators do and how to appeal. */
export default function SafetyPage() {
  return (
    <TrustPage
      title="Safety"
      lead="Two of Us is for couples meeting couples. Here is how to do it safely, and what we do when someone does not."
    >
      <h2 id="meeting">Meeting other couples in person</h2>
      <ul>
        <li>Talk here first, and meet when both couples are ready. Saying no, or not yet, needs no reason.</li>
        <li>Meet the first time somewhere public and busy, and get there and back on your own.</li>
        <li>Tell a friend where you are going and with whom, and keep your phone charged.</li>
        <li>Keep your address, workplace and money to yourselves until you know them well. Nobody here needs your bank details.</li>
        <li>If something feels wrong, leave. You owe nobody an evening.</li>
      </ul>

      <h2 id="report">Reporting and blocking</h2>
      <ul>
        <li>
          &lsquo;Report&rsquo; is in the ⋯ menu of every post, reply, message and hello you receive, and on every couple&apos;s profile. The
          couple is not told who reported them.
        </li>
        <li>
          &lsquo;Block&rsquo; a couple and neither of you sees the other anywhere any more; your conversation ends. They are not told.
        </li>
      </ul>

      <h2 id="moderators">What our moderators do</h2>
      <p>
        Moderators read every report against the <Link href="/guidelines">community guidelines</Link>. Besides removing a post, reply or
        message, they can act on a couple, always naming the guideline that was broken, and the couple is told in the app and by e-mail:
      </p>
      <ul>
        <li>
          <strong>Warn</strong>: a notice shown once, before anything else.
        </li>
        <li>
          <strong>Restrict</strong> for {RESTRICT_DAYS.join(", ")} days: reading still works, but not saying hello, messages, posts or
          replies.
        </li>
        <li>
          <strong>Suspend</strong>: both partners are signed out everywhere and cannot sign in; other couples no longer see the couple, and
          its conversations end.
        </li>
        <li>
          <strong>Ban</strong>: a suspension for good; the partners&apos; e-mail addresses cannot register again.
        </li>
      </ul>
      <p>
        Some things stop by themselves: the same hello sent to many couples in a day waits for a moderator, a couple reported by several
        couples is restricted until a moderator has looked, and new couples send a few requests a day until they have settled in. Every
        action a moderator takes is kept on a record nobody can change.
      </p>

      <h2 id="appeal">Appealing</h2>
      <p>
        Your couple can appeal each action once, in up to {APPEAL_MAX.toLocaleString("en-US")} characters. A moderator who did not take the
        action decides, and you are told either way. Signed in, see your couple&apos;s standing and appeal from{" "}
        <Link href="/safety/appeal">your couple&apos;s standing</Link>.
      </p>
      <h3 id="appeal-suspended">Appealing a suspension</h3>
      <p>Signed out by a suspension or a ban? Appeal here with your e-mail address and password.</p>
      <SuspendedAppealForm />
    </TrustPage>
  );
}
