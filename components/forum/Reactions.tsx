"use client";

import { useId, useState } from "react";
import { REACTIONS, type ReactionCounts, type ReactionKind, type ReactionTarget } from "@/lib/forum/rules";
import { setReaction, type ForumPost, type ForumReply } from "@/lib/forum/client/api";

/** Replies carry who reacted (`reactedBy`); a post only its counts. */
type Props = { target: ReactionTarget; item: Pick<ForumPost, "id" | "reactions" | "myReactions"> & { reactedBy?: ForumReply["reactedBy"] }; disabled?: boolean };

/** "You and 2 others", or the names the server sent: shown on hover and read on focus. */
function whoReacted(kind: ReactionKind, count: number, mine: boolean, names: readonly string[] | undefined): string {
  if (count === 0) return "No reactions yet";
  if (names && names.length > 0) {
    const rest = count - names.length;
    return rest > 0 ? `${names.join(", ")} and ${rest} more` : names.join(", ");
  }
  const others = count - (mine ? 1 : 0);
  const othersText = `${others} ${others === 1 ? "other" : "others"}`;
  if (!mine) return `${count} ${count === 1 ? "person" : "people"} reacted with ${kind}`;
  return others > 0 ? `You and ${othersText}` : "You";
}

/**
 * The five reaction buttons of a post or reply, each with its count and aria-pressed. The name
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
    <div className="forum-reactions" role="group" aria-label="Reactions">
      {REACTIONS.map(({ kind, emoji, label }) => {
        const pressed = mine.includes(kind);
        const tipId = `${id}-${kind}`;
        return (
          <span key={kind} className="forum-reaction">
            <button type="button" className="forum-reaction-button" aria-pressed={pressed} aria-describedby={tipId} disabled={disabled} onClick={() => toggle(kind)}>
              <span aria-hidden="true">{emoji}</span>
              <span className="forum-reaction-name">{label}</span>
              <span className="forum-reaction-count">{counts[kind]}</span>
            </button>
            <span id={tipId} role="tooltip" className="forum-tooltip">
              {whoReacted(kind, counts[kind], pressed, item.reactedBy?.[kind])}
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
