"use client";

import { useEffect, useId, useReducer, useRef, useState } from "react";
import {
  othersText,
  peopleText,
  reactedByShown,
  REACTIONS,
  whoReactedText,
  type ReactionCounts,
  type ReactionKind,
} from "@/lib/reactions/rules";
import { Dialog } from "@/components/ui/Dialog";
import styles from "./Reactions.module.css";
import { escapeScope, NO_TIP, onReactionsLayer, tipEscape, tipShowing, withTip } from "./tooltip";

/** What the reactions show: every kind's count, the viewer's own kinds, and the first names of who reacted. */
export type ReactionsValue = { counts: ReactionCounts; mine: readonly ReactionKind[]; reactedBy: Record<ReactionKind, readonly string[]> };

type Props = {
  value: ReactionsValue;
  /** Saves one reaction on or off; a failure undoes what was shown. */
  onToggle(kind: ReactionKind, on: boolean): Promise<void>;
  disabled?: boolean;
  /** Closer to what it reacts to, for a message bubble. */
  compact?: boolean;
  /** Opens with the five shown (a message's menu asked to react). */
  startOpen?: boolean;
};

/**
 * The reactions of a post, a reply or a message. With none yet, one 'React' button opens the five
 * (five '0' buttons say nothing). Each reaction is its emoji button (aria-pressed; named 'React
 * with heart', who reacted in a tooltip on hover or keyboard focus, read as its description) and,
 * once counted, its count: a button of its own that lists who reacted in a sheet, so a tap on a
 * phone shows the names without reacting and leaves no tooltip behind. A tap on an emoji shows at
 * once and is undone if the server refuses it. Its owner keys it by the value it was given, so a
 * live change shows anew.
 */
export function Reactions({ value, onToggle, disabled = false, compact = false, startOpen = false }: Props) {
  const [counts, setCounts] = useState<ReactionCounts>(value.counts);
  const [mine, setMine] = useState<readonly ReactionKind[]>(value.mine);
  const [error, setError] = useState<string | null>(null);
  const [picking, setPicking] = useState(startOpen);
  const [shown, setShown] = useState<ReactionKind | null>(null);
  const [tip, changeTip] = useReducer(withTip, NO_TIP);
  const showing = tipShowing(tip);
  const id = useId();
  const group = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const reactions = group.current;
    if (!showing || !reactions) return;
    // Within the dialog the reactions sit in, else the page: a pointer resting on the emoji leaves the keyboard's focus anywhere.
    const scope = escapeScope(reactions);
    const dismiss = (event: Event) =>
      tipEscape(event as KeyboardEvent, onReactionsLayer(reactions, event.target), () => changeTip("escape"));
    scope.addEventListener("keydown", dismiss);
    return () => scope.removeEventListener("keydown", dismiss);
  }, [showing]);

  async function toggle(kind: ReactionKind) {
    const on = !mine.includes(kind);
    const apply = (pressed: boolean) => {
      setMine((kinds) => (pressed ? [...kinds.filter((k) => k !== kind), kind] : kinds.filter((k) => k !== kind)));
      setCounts((c) => ({ ...c, [kind]: Math.max(0, c[kind] + (pressed ? 1 : -1)) }));
    };
    apply(on);
    setError(null);
    try {
      await onToggle(kind, on);
    } catch (failure) {
      apply(!on);
      setError(failure instanceof Error ? failure.message : "Could not save your reaction");
    }
  }

  const none = REACTIONS.every(({ kind }) => counts[kind] === 0);
  if (none && !picking) {
    if (disabled) return null;
    return (
      <div className={styles.reactions} role="group" aria-label="Reactions">
        <button type="button" className={styles.button} onClick={() => setPicking(true)}>
          React
        </button>
      </div>
    );
  }

  const sheet = shown ? REACTIONS.find((r) => r.kind === shown)! : null;
  return (
    <div ref={group} className={compact ? `${styles.reactions} ${styles.compact}` : styles.reactions} role="group" aria-label="Reactions">
      {REACTIONS.map(({ kind, emoji, label }) => {
        const tipId = `${id}-${kind}`;
        const count = counts[kind];
        return (
          <span
            key={kind}
            className={styles.reaction}
            onMouseEnter={() => changeTip({ point: kind })}
            onMouseLeave={() => changeTip({ point: null })}
          >
            <button
              type="button"
              className={styles.button}
              aria-pressed={mine.includes(kind)}
              aria-describedby={tipId}
              disabled={disabled}
              // The picker was opened for a first reaction: its first emoji takes the focus.
              autoFocus={none && kind === REACTIONS[0].kind}
              onClick={() => toggle(kind)}
              onFocus={() => changeTip({ focus: kind })}
              onBlur={() => changeTip({ focus: null })}
            >
              <span aria-hidden="true">{emoji}</span>
              <span className="visually-hidden">{label}</span>
            </button>
            <span
              id={tipId}
              role="tooltip"
              className={tip.dismissed.includes(kind) ? `${styles.tooltip} ${styles.dismissed}` : styles.tooltip}
            >
              {whoReactedText(count, value.reactedBy[kind])}
            </span>
            {count > 0 && (
              <button type="button" className={styles.count} aria-haspopup="dialog" onClick={() => setShown(kind)}>
                {count}
                <span className="visually-hidden"> {label.replace(/^React with /, "")}: who reacted</span>
              </button>
            )}
          </span>
        );
      })}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {sheet && (
        <Dialog
          open
          onClose={() => setShown(null)}
          title={`${sheet.emoji} ${whoReactedTitle(counts[sheet.kind])}`}
          closeButton
          className={styles.sheet}
        >
          <WhoReacted count={counts[sheet.kind]} names={value.reactedBy[sheet.kind]} />
        </Dialog>
      )}
    </div>
  );
}

const whoReactedTitle = (count: number) => `${count} ${count === 1 ? "reaction" : "reactions"}`;

/** The names the server sent (the first few it may name), then how many more. */
function WhoReacted({ count, names }: { count: number; names: readonly string[] }) {
  const { listed, rest } = reactedByShown(count, names);
  return (
    <ul className={styles.names}>
      {listed.map((name, index) => (
        <li key={`${index}-${name}`}>{name}</li>
      ))}
      {rest > 0 && <li className={styles.rest}>{listed.length === 0 ? peopleText(count) : `and ${othersText(rest)}`}</li>}
    </ul>
  );
}
