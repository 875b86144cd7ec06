import type { Metadata } from "next";
import Link from "next/link";
import { TrustPage } from "@/components/legal/TrustPage";

export const metadata: Metadata = { title: "Terms" };

/** The terms of use, written for this product: couples, their photos and places, their words. */
export default function TermsPage() {
  return (
    <TrustPage title="Terms" lead="The agreement between you and Two of Us, the social network for couples without children.">
      <h2>Who can join</h2>
      <ul>
        <li>You are 18 or older, and you are one of the two partners of a couple.</li>
        <li>
          Each partner has an account of their own, with their own e-mail address and password. Partner A creates the couple&apos;s profile
          and invites partner B; the couple becomes a &lsquo;Verified Couple&rsquo; once both partners have joined and verified their
          e-mail. The badge says no more than that: we do not check identities.
        </li>
        <li>One couple profile per person. Tell the truth about who you are; do not act for someone else.</li>
      </ul>

      <h2>Your account</h2>
      <ul>
        <li>Keep your password to yourself. You can see and end your signed-in devices in Settings, Security.</li>
        <li>You are responsible for what is done with your account. Tell us at once if you think someone else has used it.</li>
      </ul>

      <h2>What you share</h2>
      <ul>
        <li>
          Your profile, your couple&apos;s profile and photos, your posts, replies and reactions stay yours. By sharing them you allow us to
          store them and show them to the members your settings allow, for as long as you keep them here.
        </li>
        <li>
          Share only photos you took or may share, of people who agree to be shown. Never share photos of children, and nothing sexual.
        </li>
        <li>
          Your place is shown at the privacy level you choose: exact, city, region, country or hidden. Others never see it finer than that,
          and the distances we show are bands (&lsquo;Within 10 km&rsquo;), never exact figures. See the{" "}
          <Link href="/privacy">Privacy notice</Link>.
        </li>
      </ul>

      <h2>Messages between couples</h2>
      <p>
        A conversation is between two couples: all four partners see it, and nobody else. It opens only when the couple you write to
        accepts. Write as you would face to face; the <Link href="/guidelines">Community guidelines</Link> apply to messages as they do to
        the forum.
      </p>

      <h2>Keeping it kind</h2>
      <ul>
        <li>
          Follow the <Link href="/guidelines">Community guidelines</Link>. We may remove what breaks them and suspend or close an account
          that breaks them again or badly.
        </li>
        <li>You can block any couple, from their profile or from their posts and replies. Blocking hides both couples from each other.</li>
      </ul>

      <h2>Leaving</h2>
      <p>
        You can delete your account at any time in Settings, Data. Your profile, photos, reactions, notifications and sessions are erased.
        Your posts and replies stay in the forum signed &lsquo;Deleted member&rsquo;, so conversations others took part in still make sense.
        Your partner keeps the couple profile on their own; if you were its only partner, the couple and its photos go too.
      </p>

      <h2>The service</h2>
      <ul>
        <li>
          Two of Us is young and changes as we learn. We provide it as it is and may change or end parts of it; when these terms change in a
          way that matters, we tell you before it takes effect.
        </li>
        <li>Meeting another couple is your choice: meet in public first and tell someone where you are going.</li>
      </ul>
    </TrustPage>
  );
}
