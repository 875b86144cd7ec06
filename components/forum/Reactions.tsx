"use client";

import { useId, useState } from "react";
import { REACTIONS, whoReactedText, type ReactionCounts, type ReactionKind, type ReactionTarget } from "@/lib/forum/rules";
import { setReaction, type ForumPostDetail } from "@/lib/forum/client/api";
import styles from "./Reactions.module.css";

type Props = { target: ReactionTarget; item: Pick<ForumPostDetail, "id" | "reactions" | "myReactions" | "reactedBy">; disabled?: boolean };

/**
 * The five reaction buttons of a post or reply, each with its count and aria-pressed, and who
 * reacted in a tooltip shown on hover and on keyboard focus (and read as the button's description). The name
 * comes from the content ('React with heart' read, not shown; then the count), so it holds all
 * the visible text. A tap
 * shows at once and is undone if the server refuses it.
 */
export function Reactions({ target, item, disabled = false }: Props) {
  const [counts, setCounts] = useState<ReactionCounts>(item.reactions);
  const [mine, setMine] = useState<ReactionKind[]>(item.myReactions);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  async function toggle(kind: ReactionKind) {
    const on = !mine.includes(kind);
    const apply = (pressed: boolean) => {
      setMine((kinds) => (pressed ? [...kinds.filter((k) => k !== kind), kind] : kinds.filter((k) => k !== kind)));
      setCounts((c) => ({ ...c, [kind]: Math.max(0, c[kind] + (pressed ? 1 : -1)) }));
    };
    apply(on);
    setError(null);
    try {
      await setReaction(target, item.id, kind, on);
    } catch (failure) {
      apply(!on);
      setError(failure instanceof Error ? failure.message : "Could not save your reaction");
    }
  }

  return (
    <div className={styles.reactions} role="group" aria-label="Reactions">
      {REACTIONS.map(({ kind, emoji, label }) => {
        const pressed = mine.includes(kind);
        const tipId = `${id}-${kind}`;
        return (
          <span key={kind} className={styles.reaction}>
            <button
              type="button"
              className={styles.button}
              aria-pressed={pressed}
              aria-describedby={tipId}
              disabled={disabled}
              onClick={() => toggle(kind)}
            >
              <span aria-hidden="true">{emoji}</span>
              <span className="visually-hidden">{label}</span>
              <span>{counts[kind]}</span>
            </button>
            <span id={tipId} role="tooltip" className={styles.tooltip}>
              {whoReactedText(counts[kind], item.reactedBy[kind])}
            </span>
          </span>
        );
      })}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
