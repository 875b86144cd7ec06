"use client";

import Link from "next/link";
import { createContext, useContext } from "react";
import type { DiscoverSuggestion } from "@/lib/discover/queries";
import { SayHello } from "@/components/messages/SayHello";
import styles from "./SuggestionList.module.css";

type Dismissal = { busy: string | null; dismiss(suggestion: Pick<DiscoverSuggestion, "coupleId" | "coupleName">): void };

/** The list's 'Not for us', given to each card's actions (the cards themselves are server HTML). */
export const DismissalContext = createContext<Dismissal>({ busy: null, dismiss: () => {} });

/** A suggestion's 'Say hello', 'View profile' and 'Not for us'. */
export function SuggestionActions({ suggestion }: { suggestion: Pick<DiscoverSuggestion, "coupleId" | "coupleName" | "connection"> }) {
  const { busy, dismiss } = useContext(DismissalContext);
  return (
    <div className={styles.actions}>
      <SayHello coupleId={suggestion.coupleId} coupleName={suggestion.coupleName} connection={suggestion.connection} />
      <Link href={`/profile/${encodeURIComponent(suggestion.coupleId)}`} className="button button-secondary" prefetch={false}>
        View profile
      </Link>
      <button
        type="button"
        className="button button-secondary"
        disabled={busy === suggestion.coupleId}
        aria-label={`Not for us: hide ${suggestion.coupleName} for 30 days`}
        onClick={() => dismiss(suggestion)}
      >
        Not for us
      </button>
    </div>
  );
}
