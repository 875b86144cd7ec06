"use client";

import Link from "next/link";
import { useRef, useState } from "react";
import { dismissSuggestionAction } from "@/app/(app)/discover/actions";
import { Alert } from "@/components/ui/Alert";
import type { ShownSuggestion } from "@/lib/discover/queries";
import { SuggestionActions } from "./SuggestionActions";
import { SuggestionCard, SuggestionGrid } from "./SuggestionCard";
import styles from "./SuggestionList.module.css";
import { reach } from "@/lib/transport/actions";

/**
 * The ranked suggestions with 'Not for us' on each: the card goes at once (the server hides it
 * for 30 days), the change is announced, and focus moves to the next card's name (or the
 * list's heading when none is left), so a keyboard user keeps their place. The cards come as data
 * beside the server's HTML: the page's flight holds a card's data, not its rendered elements.
 */
export function SuggestionList({ suggestions }: { suggestions: ShownSuggestion[] }) {
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = suggestions.filter((suggestion) => !hidden.has(suggestion.coupleId));

  async function dismiss(suggestion: ShownSuggestion) {
    setBusy(suggestion.coupleId);
    setError(null);
    const result = await reach(() => dismissSuggestionAction(suggestion.coupleId));
    setBusy(null);
    if (!result.ok) {
      setError(result.message);
      return;
    }
    const index = shown.findIndex((item) => item.coupleId === suggestion.coupleId);
    const next = shown[index + 1] ?? shown[index - 1];
    setHidden((previous) => new Set(previous).add(suggestion.coupleId));
    setStatus(`${suggestion.coupleName} is hidden from your suggestions for 30 days.`);
    requestAnimationFrame(() => (next ? document.getElementById(`suggestion-${next.coupleId}`) : heading.current)?.focus());
  }

  return (
    <section aria-labelledby="suggestions-heading">
      <h2 id="suggestions-heading" ref={heading} tabIndex={-1} className="visually-hidden">
        Suggested couples
      </h2>
      <p role="status" className="visually-hidden">
        {status}
      </p>
      {error && <Alert tone="error">{error}</Alert>}
      {shown.length === 0 ? (
        <div className={styles.empty}>
          <p>No suggestions right now. Add more interests and adventure styles, or set your location, and we will find couples like you.</p>
          <p>
            <Link href="/settings" className="inline-target">
              Update your profile
            </Link>{" "}
            or{" "}
            <Link href="/directory" className="inline-target">
              browse the directory
            </Link>
            .
          </p>
        </div>
      ) : (
        <SuggestionGrid>
          {shown.map((suggestion, index) => (
            <li key={suggestion.coupleId}>
              <SuggestionCard suggestion={suggestion} first={index === 0} headingLevel={3}>
                <SuggestionActions suggestion={suggestion} busy={busy === suggestion.coupleId} onDismiss={() => dismiss(suggestion)} />
              </SuggestionCard>
            </li>
          ))}
        </SuggestionGrid>
      )}
    </section>
  );
}
