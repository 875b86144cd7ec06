import "server-only";
import type { Db } from "@/db/client";
import { UNREAD_EVENT } from "./rules";

/**
 * Live kinds plug in, as MessageBus channels do: lib/live stores, numbers, wakes and streams
 * events, and knows no feature. A feature declares its kinds (what each is called, who may see one
 * and what it says now) and its counts in one file, and lib/registry/live.ts lists those files.
 */

/** A live_events row as a kind's render reads it. */
export type LiveRow = { seq: number; kind: string; subjectId: string | null; payload: Record<string, string> | null };

/** What a render may share with the others of the same page (a count read once for all). */
export type RenderContext = {
  db: Db;
  userId: string;
  /** The value of `read` for this page: the first call reads, the others share it. */
  once<T>(key: string, read: () => Promise<T>): Promise<T>;
};

export type LiveKind = {
  /** Stored in live_events.kind. */
  name: string;
  /** The stream's event name (README, "Live updates"). */
  event: string;
  /** After one, the person's unread counts may differ: the publish adds one `unread` row. */
  changesCounts?: boolean;
  /** Its event carries the person's state now, not one change: only a page's last is sent. */
  latestOnly?: boolean;
  /**
   * What each of the page's rows of this kind says to the person now, in the rows' order, read
   * when sent (no query per row): undefined where they may no longer see it (it is skipped).
   */
  render(context: RenderContext, rows: readonly LiveRow[]): Promise<unknown[]>;
};

/**
 * What an ephemeral kind's notification carries (lib/live/publish.ts `publishEphemeral`): ids
 * only, never words, small enough for pg_notify.
 */
export type EphemeralMessage = {
  kind: string;
  /** The people whose open streams may be sent it. */
  to: readonly string[];
  subjectId: string;
  payload: Record<string, string>;
};

/**
 * A kind that is never stored (a passing state, such as '... is typing'): published straight to
 * every instance's listener, sent once, without an id (the stream's position never moves for it),
 * to the open streams of the people it names, and lost for whoever is not connected.
 */
export type EphemeralKind = {
  name: string;
  /** The stream's event name. */
  event: string;
  /** What the message says to the person now, read when it is sent: undefined where they may not see it (it is dropped). */
  render(context: RenderContext, message: EphemeralMessage): Promise<unknown>;
};

/** A number the `unread` event carries (the bell's, the message badge's), under its name. */
export type LiveCount = { name: string; read(context: RenderContext): Promise<number> };

/** What one feature plugs in. */
export type LiveFeature = { kinds?: readonly LiveKind[]; ephemeral?: readonly EphemeralKind[]; counts?: readonly LiveCount[] };

/** Every registered kind by name (stored and ephemeral), and every count. */
export type LiveRegistry = {
  kinds: ReadonlyMap<string, LiveKind>;
  ephemeral: ReadonlyMap<string, EphemeralKind>;
  counts: readonly LiveCount[];
};

/** The registry of the features' kinds and counts; a name registered twice is a mistake caught at start. */
export function liveRegistry(features: readonly LiveFeature[]): LiveRegistry {
  const kinds = new Map<string, LiveKind>();
  const ephemeral = new Map<string, EphemeralKind>();
  const taken = (name: string) => kinds.has(name) || ephemeral.has(name) || name === UNREAD;
  for (const kind of features.flatMap((feature) => feature.kinds ?? [])) {
    if (taken(kind.name)) throw new Error(`Live kind registered twice: ${kind.name}`);
    kinds.set(kind.name, kind);
  }
  for (const kind of features.flatMap((feature) => feature.ephemeral ?? [])) {
    if (taken(kind.name)) throw new Error(`Live kind registered twice: ${kind.name}`);
    ephemeral.set(kind.name, kind);
  }
  return { kinds, ephemeral, counts: features.flatMap((feature) => feature.counts ?? []) };
}

/** The foundation's own kind (stored and sent under one name): it asks the stream to send the person's counts now. */
export const UNREAD = UNREAD_EVENT;

/** The person's counts now, by name (the `unread` event; a stream's first event). */
export async function readCounts(context: RenderContext, counts: readonly LiveCount[]): Promise<Record<string, number>> {
  const values = await Promise.all(counts.map((count) => count.read(context)));
  return Object.fromEntries(counts.map((count, index) => [count.name, values[index]!]));
}

/** A render context for one person and one page. */
export function renderContext(db: Db, userId: string): RenderContext {
  const read = new Map<string, Promise<unknown>>();
  return {
    db,
    userId,
    once<T>(key: string, load: () => Promise<T>) {
      let found = read.get(key) as Promise<T> | undefined;
      if (!found) read.set(key, (found = load()));
      return found;
    },
  };
}
