import Link from "next/link";
import type { ReactNode } from "react";
import { CoupleBadge } from "@/components/profile/CoupleBadge";
import { FacePhoto } from "@/components/ui/FacePhoto";
import type { ShownSuggestion } from "@/lib/discover/queries";
import styles from "./SuggestionCard.module.css";

/**
 * One suggested couple, face first: photo, name, badge, place, and why it is suggested as short
 * chips. `first`: the list's first, in the first screen: its photo loads at once, ahead of the
 * others (which load as they scroll in).
 */
export function SuggestionCard({
  suggestion,
  headingLevel = 2,
  first = false,
  children,
}: {
  suggestion: ShownSuggestion;
  headingLevel?: 2 | 3;
  first?: boolean;
  children?: ReactNode;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const href = `/profile/${encodeURIComponent(suggestion.coupleId)}`;
  return (
    <article className={styles.card} aria-labelledby={`suggestion-${suggestion.coupleId}`}>
      {/* Its links are not prefetched, as the directory's cards (CoupleCard). */}
      <Link href={href} tabIndex={-1} aria-hidden="true" className={styles.photoLink} prefetch={false}>
        <FacePhoto src={suggestion.profileImageUrl} size={400} className={styles.photo} lazy={!first} priority={first} />
      </Link>
      <div className={styles.body}>
        <Heading id={`suggestion-${suggestion.coupleId}`} className={styles.name} tabIndex={-1}>
          <Link href={href} prefetch={false}>
            {suggestion.coupleName}
          </Link>
        </Heading>
        <p className={styles.meta}>
          <span className={suggestion.badge === "Verified Couple" ? "chip chip-verified" : "chip"}>{suggestion.badge}</span>
          {suggestion.location && <span className={styles.place}>{suggestion.location}</span>}
        </p>
        {suggestion.photoBadge && <CoupleBadge badge={suggestion.photoBadge} />}
        <ul className={styles.reasons} aria-label="Why we suggest them">
          {/* Keyed by place, not by text: a list drawn once, and a server-rendered key is sent in the page's flight data. */}
          {suggestion.reasons.map((reason, index) => (
            <li key={index} className="chip">
              {reason}
            </li>
          ))}
        </ul>
        {children}
      </div>
    </article>
  );
}

/** Suggested couples side by side (discover, the dashboard), each a list item holding a SuggestionCard. */
export function SuggestionGrid({ children }: { children: ReactNode }) {
  return <ul className={styles.grid}>{children}</ul>;
}
