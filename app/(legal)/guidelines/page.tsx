import type { Metadata } from "next";
import { TrustPage } from "@/components/legal/TrustPage";
import { REPORT_REASONS } from "@/lib/forum/rules";
import { GUIDELINES } from "@/lib/safety/rules";

export const metadata: Metadata = { title: "Community guidelines" };

/** What is welcome, what is removed and how reports work, in the forum, on profiles and in messages. */
export default function GuidelinesPage() {
  return (
    <TrustPage
      title="Community guidelines"
      lead="Two of Us is where couples without children meet other couples. These guidelines keep it a place people want to come back to."
    >
      <h2>What is welcome</h2>
      <ul>
        <li>Trips, plans, questions and tips; asking who is up for a hike, a dinner or a board-game night nearby.</li>
        <li>Disagreeing kindly. Every couple lives differently; curiosity goes further than judgement.</li>
        <li>Photos of the two of you and of places you love, shared with the consent of everyone in them.</li>
        <li>Saying no, and taking no for an answer, without explaining why.</li>
      </ul>

      <h2>What is removed</h2>
      <ul>
        {GUIDELINES.map((guideline) => (
          <li key={guideline.key} id={`guideline-${guideline.key}`}>
            <strong>{guideline.label}</strong>: {guideline.rule}
          </li>
        ))}
      </ul>
      <p>A couple that breaks these guidelines may lose what they posted; breaking them again or badly ends the account.</p>

      <h2>How reports work</h2>
      <ul>
        <li>
          &lsquo;Report&rsquo; is in the ⋯ menu of every post, reply and message, and of every couple&apos;s profile. Choose a reason (
          {REPORT_REASONS.map((reason) => reason.label).join(", ")}) and add a few words if they help.
        </li>
        <li>
          Our moderators read each report and either remove what breaks the guidelines or leave it up. The couple you report is not told who
          reported them.
        </li>
        <li>
          You need not wait for us: &lsquo;Block&rsquo; a couple from their profile or their posts and replies, and neither of you sees the
          other anywhere any more, and a conversation between you ends. They are not told you blocked them; they read that the conversation
          has ended.
        </li>
      </ul>
    </TrustPage>
  );
}
