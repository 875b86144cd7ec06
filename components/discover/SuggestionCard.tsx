import Link from "next/link";
import type { ReactNode } from "react";
import type { DiscoverSuggestion } from "@/lib/discover/queries";
import styles from "./SuggestionCard.module.css";

/** One suggested couple: photo, name, badge, place, styles, and why it is suggested. */
export function SuggestionCard({
  suggestion,
  headingLevel = 2,
  children,
}: {
  suggestion: DiscoverSuggestion;
  headingLevel?: 2 | 3;
  children?: ReactNode;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const href = `/profile/${encodeURIComponent(suggestion.coupleId)}`;
  return (
    <article className={styles.card} aria-labelledby={`suggestion-${suggestion.coupleId}`}>
      <div className={styles.head}>
        {suggestion.profileImageUrl ? (
          // eslint-disable-next-line @next/next/no-img-element -- already resized by the server
          <img src={suggestion.profileImageUrl} alt="" width={56} height={56} className={styles.photo} />
        ) : (
          <span className={`${styles.photo} ${styles.initial}`} aria-hidden="true">
            {suggestion.coupleName.slice(0, 1)}
          </span>
        )}
        <div>
          <Heading id={`suggestion-${suggestion.coupleId}`} className={styles.name} tabIndex={-1}>
            <Link href={href}>{suggestion.coupleName}</Link>
          </Heading>
          <p className={styles.meta}>
            <span className={suggestion.badge === "Verified Couple" ? `${styles.badge} ${styles.verified}` : styles.badge}>
              {suggestion.badge}
            </span>
            {suggestion.location && <span> · {suggestion.location}</span>}
          </p>
        </div>
      </div>
      <ul className={styles.reasons} aria-label="Why we suggest them">
        {suggestion.reasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
      {children}
    </article>
  );
}

/** Suggested couples side by side (discover, the dashboard), each a list item holding a SuggestionCard. */
export function SuggestionGrid({ children }: { children: ReactNode }) {
  return <ul className={styles.grid}>{children}</ul>;
}
