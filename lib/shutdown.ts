/**
 * What a server of its own (server.ts) does before its process ends, in three phases: `streams`
 * ends the responses that never end by themselves (live streams: their clients resume from their
 * last id once a server answers again), `work` stops what runs beside requests (the due work, the
 * live listener), `database` closes it (the embedded database's files are left whole, not
 * recovered at the next start). Serverless instances are frozen, not stopped: nothing runs these.
 *
 * The hooks live on globalThis: server.ts is compiled apart from Next's bundles, which hold the
 * modules that add them, so a module-level list would be one per copy.
 */
export type ShutdownPhase = "streams" | "work" | "database";

type Hook = () => void | Promise<void>;

const registry = globalThis as unknown as { __shutdownHooks?: Record<ShutdownPhase, Set<Hook>> };

const hooks = () => (registry.__shutdownHooks ??= { streams: new Set(), work: new Set(), database: new Set() });

/** Runs `hook` in `phase` when the server stops; answers how to take it back (a stream that ended). */
export function onShutdown(phase: ShutdownPhase, hook: Hook): () => void {
  const phaseHooks = hooks()[phase];
  phaseHooks.add(hook);
  return () => void phaseHooks.delete(hook);
}

/** Runs every hook of `phase` at once and waits for them; one that fails is logged, never stops the rest. */
export async function runShutdown(phase: ShutdownPhase): Promise<void> {
  const phaseHooks = [...hooks()[phase]];
  hooks()[phase].clear();
  const results = await Promise.allSettled(phaseHooks.map(async (hook) => hook()));
  const failed = results.filter((result) => result.status === "rejected").length;
  if (failed) console.error(`[shutdown] ${failed} of the ${phase} phase's steps failed`);
}
