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

/**
 * Where Escape is heard for the tooltips (WCAG 1.4.13: the pointer resting on an emoji leaves the
 * keyboard's focus anywhere): within the dialog the reactions sit in, else the page. Never the
 * whole page from inside a dialog, whose own Escape closes it.
 */
export const escapeScope = (reactions: Element): EventTarget => reactions.closest("dialog") ?? reactions.ownerDocument;

/**
 * Whether a key pressed at `target` (where focus is) is heard for the reactions' tooltip: on their
 * layer (within the dialog they sit in, else the page), never within a dialog opened over them
 * (the sheet of who reacted, a report form) while the pointer still rests on an emoji beneath:
 * that dialog's Escape closes it.
 */
export const onReactionsLayer = (reactions: Element, target: EventTarget | null): boolean =>
  target === null || !("closest" in target) || escapeScope(target as Element) === escapeScope(reactions);

/**
 * Escape while a tooltip is up (and heard on its layer, onReactionsLayer) dismisses it and nothing
 * else: the key goes no further, so a dialog around the reactions stays open until the next
 * Escape. Otherwise it is left to its owner.
 */
export function tipEscape(
  event: Pick<KeyboardEvent, "key" | "preventDefault" | "stopPropagation">,
  heard: boolean,
  dismiss: () => void,
): void {
  if (event.key !== "Escape" || !heard) return;
  event.preventDefault();
  event.stopPropagation();
  dismiss();
}
