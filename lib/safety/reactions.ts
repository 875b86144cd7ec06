import "server-only";
import type { Db } from "@/db/client";
import type { ReportTargetType } from "@/db/schema/forum-values";
import type { ModerationAction, SanctionKind } from "./rules";

/**
 * Safety announces what it did; the features that care react, in safety's own transaction (so a
 * block and its consequences commit together), and safety depends on no feature. The reactions
 * are listed in lib/registry/safety.ts, which the callers of a block or a decision hand in.
 */

/** One couple blocked another. */
export type Block = { blockerCoupleId: string; blockedCoupleId: string };

/** A moderator decided an open report (with its target's others against the same couple: `decidedWith`). */
export type ResolvedReport = { targetType: ReportTargetType; targetId: string; action: ModerationAction };

/**
 * What a report names, about to be locked or written by safety: hidden by a third couple's report,
 * or decided on by a moderator.
 */
export type ReportedContent = { targetType: ReportTargetType; targetId: string };

/** Reports hid a post or reply from all but its own couple (REPORT_HIDE_THRESHOLD), until a moderator decides. */
export type HiddenByReports = { targetType: ReportTargetType; targetId: string };

/** A moderator acted on a couple (warn, restrict, suspend, ban), or lifted what was done. */
export type Sanctioned = { sanctionId: string; coupleId: string; kind: SanctionKind; reason: string; endsAt: string | null };

export type SafetyReactions = {
  blocked?(tx: Db, block: Block): Promise<void>;
  /** The blocking couple lifted its block. */
  unblocked?(tx: Db, block: Block): Promise<void>;
  sanctioned?(tx: Db, sanction: Sanctioned): Promise<void>;
  lifted?(tx: Db, sanction: Sanctioned): Promise<void>;
  appealRefused?(tx: Db, sanction: Sanctioned): Promise<void>;
  /** Answers the storage keys of images to delete once the decision commits. */
  reportResolved?(tx: Db, report: ResolvedReport): Promise<string[]>;
  hiddenByReports?(tx: Db, hidden: HiddenByReports): Promise<void>;
  /**
   * Before safety locks or writes what a report names: key-shares the people (then the couples) the
   * reaction to its hiding or removal will name (its notices, its live rows), in id order. Person
   * rows come before content (an account's deletion takes the person's row, then writes their posts,
   * replies and plans), so the decision waits for a deletion under way before holding the content,
   * never holds it while waiting on the person.
   */
  holdNamed?(tx: Db, content: ReportedContent): Promise<void>;
  /**
   * Whether the feature shows the looking couple something of another couple whatever the
   * directory's visibility (its words in the forum, a conversation, a hello): that couple is known
   * to them, so they may name it to block or report it (lib/safety/visibility.ts `knownTo`).
   */
  shows?(tx: Db, lookerCoupleId: string, coupleId: string): Promise<boolean>;
};

/** Tells every reaction of a block, or of its lifting. */
export async function announceBlock(tx: Db, reactions: readonly SafetyReactions[], block: Block, lifted = false): Promise<void> {
  for (const reaction of reactions) await (lifted ? reaction.unblocked : reaction.blocked)?.(tx, block);
}

/** Tells every reaction of a decision; answers the images to delete after the commit. */
export async function announceResolved(tx: Db, reactions: readonly SafetyReactions[], report: ResolvedReport): Promise<string[]> {
  const keys: string[] = [];
  for (const reaction of reactions) keys.push(...((await reaction.reportResolved?.(tx, report)) ?? []));
  return keys;
}

/** Lets every reaction hold the rows it will name, before safety locks what a report names (`holdNamed`). */
export async function holdNamedFirst(tx: Db, reactions: readonly SafetyReactions[], content: ReportedContent): Promise<void> {
  for (const reaction of reactions) await reaction.holdNamed?.(tx, content);
}

/** Tells every reaction that reports hid a post or reply. */
export async function announceHidden(tx: Db, reactions: readonly SafetyReactions[], hidden: HiddenByReports): Promise<void> {
  for (const reaction of reactions) await reaction.hiddenByReports?.(tx, hidden);
}

/** Tells every reaction that a moderator acted on a couple, or lifted it. */
export async function announceSanction(
  tx: Db,
  reactions: readonly SafetyReactions[],
  event: "sanctioned" | "lifted" | "appealRefused",
  sanction: Sanctioned,
) {
  for (const reaction of reactions) await reaction[event]?.(tx, sanction);
}
