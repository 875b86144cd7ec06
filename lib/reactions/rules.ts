/**
 * The five reactions a post, a reply or a message takes: their labels, counts and the texts of
 * who reacted. Pure and browser-safe; the values come from db/schema/forum-values.ts.
 */
import { REACTION_KINDS, type ReactionKind } from "@/db/schema/forum-values";

export { REACTION_KINDS };
export type { ReactionKind };

/** The fixed reaction set, in display order; `label` is each button's accessible name. */
export const REACTIONS = [
  { kind: "heart", emoji: "❤️", label: "React with heart" },
  { kind: "laugh", emoji: "😂", label: "React with laugh" },
  { kind: "wow", emoji: "😮", label: "React with wow" },
  { kind: "clap", emoji: "👏", label: "React with clap" },
  { kind: "hug", emoji: "🤗", label: "React with hug" },
] as const satisfies readonly { kind: ReactionKind; emoji: string; label: string }[];
export type ReactionCounts = Record<ReactionKind, number>;

/** Counts of every kind, zero where no row was counted: the API always answers all five. */
export function reactionCounts(rows: readonly { kind: ReactionKind; count: number }[]): ReactionCounts {
  const counts = Object.fromEntries(REACTION_KINDS.map((kind) => [kind, 0])) as ReactionCounts;
  for (const row of rows) counts[row.kind] += row.count;
  return counts;
}

/** Who reacted with one kind: this many signatures at most, the rest counted ("and 3 others"). */
export const REACTED_BY_SHOWN = 10;

/**
 * The text of a reaction's tooltip: the signatures the server sent (the first few) and a count
 * of the rest: "Marisol of Marisol & Thaddeus, Rui of Ana & Rui and 3 others".
 */
export function whoReactedText(count: number, names: readonly string[]): string {
  if (count <= 0) return "No reactions yet";
  const { listed, rest } = reactedByShown(count, names);
  if (listed.length === 0) return peopleText(count);
  if (rest > 0) return `${listed.join(", ")} and ${othersText(rest)}`;
  return listed.length === 1 ? listed[0]! : `${listed.slice(0, -1).join(", ")} and ${listed.at(-1)}`;
}

/** Who reacted as a list shows it (the count's sheet): the names named, and how many more. */
export function reactedByShown(count: number, names: readonly string[]): { listed: string[]; rest: number } {
  const listed = names.slice(0, Math.min(count, REACTED_BY_SHOWN));
  return { listed, rest: count - listed.length };
}

export const peopleText = (count: number) => `${count} ${count === 1 ? "person" : "people"}`;
export const othersText = (rest: number) => `${rest} ${rest === 1 ? "other" : "others"}`;
