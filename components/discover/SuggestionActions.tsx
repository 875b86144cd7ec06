"use client";

import Link from "next/link";
import type { ShownSuggestion } from "@/lib/discover/queries";
import { SayHello } from "@/components/messages/SayHello";
import styles from "./SuggestionList.module.css";

type Props = {
  suggestion: Pick<ShownSuggestion, "coupleId" | "coupleName" | "connection">;
  /** Its 'Not for us' is on its way. */
  busy: boolean;
  onDismiss(): void;
};

/** A suggestion's 'Say hello', 'View profile' and 'Not for us'. */
export function SuggestionActions({ suggestion, busy, onDismiss }: Props) {
  return (
    <div className={styles.actions}>
      <SayHello coupleId={suggestion.coupleId} coupleName={suggestion.coupleName} connection={suggestion.connection} />
      <Link href={`/profile/${encodeURIComponent(suggestion.coupleId)}`} className="button button-secondary" prefetch={false}>
        View profile
      </Link>
      <button
        type="button"
        className="button button-secondary"
        disabled={busy}
        aria-label={`Not for us: hide ${suggestion.coupleName} for 30 days`}
        onClick={onDismiss}
      >
        Not for us
      </button>
    </div>
  );
}
