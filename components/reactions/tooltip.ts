import type { ReactionKind } from "@/lib/reactions/rules";

/**
 * The who-reacted tooltips shown (components/reactions/Reactions.tsx): the one the pointer rests on
 * and the one the keyboard's focus is on, apart, since either shows its tooltip while the other
 * comes and goes; and those Escape dismissed (WCAG 1.4.13: without moving the pointer or the
 * focus), each until its emoji is pointed at or focused again.
 */
export type Tip = { pointed: ReactionKind | null; focused: ReactionKind | null; dismissed: readonly ReactionKind[] };

export const NO_TIP: Tip = { pointed: null, focused: null, dismissed: [] };

const shownAgain = (dismissed: readonly ReactionKind[], kind: ReactionKind | null) => dismissed.filter((k) => k !== kind);

/** `tip` after the pointer moved (to an emoji, or off them), the focus moved, or Escape was pressed. */
export function withTip(tip: Tip, change: { point: ReactionKind | null } | { focus: ReactionKind | null } | "escape"): Tip {
  if (change === "escape") {
    const shown = [tip.pointed, tip.focused].filter((kind): kind is ReactionKind => kind !== null);
    return { ...tip, dismissed: [...new Set([...tip.dismissed, ...shown])] };
  }
  if ("point" in change) return { ...tip, pointed: change.point, dismissed: shownAgain(tip.dismissed, change.point) };
  return { ...tip, focused: change.focus, dismissed: shownAgain(tip.dismissed, change.focus) };
}

/** Whether a tooltip is up for Escape to dismiss. */
export const tipShowing = (tip: Tip): boolean => [tip.pointed, tip.focused].some((kind) => kind !== null && !tip.dismissed.includes(kind));
