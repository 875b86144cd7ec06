/**
 * The production build and the app's server the bench measures: `npm run build`'s steps into DIST_DIR
 * (once per run; BENCH_SKIP_BUILD=1 reuses the last one), then the compiled server.ts, as `npm start` runs it,
 * on 127.0.0.1:PORT with TRUSTED_PROXY_HOPS=1 (the bench plays the proxy: each virtual user's
 * X-Forwarded-For is its address) and BENCH_BARE=1, which opens the baselines /api/bench/bare
 * and /dev/bare. Each child runs in a process group of its own, stopped at cleanup.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DIST_DIR, ORIGIN, PORT, READY_TIMEOUT_MS } from "./config";
import { onCleanup } from "./cleanup";

export const NEXT_BIN = path.join("node_modules", "next", "dist", "bin", "next");
const TSX_CLI = path.join("node_modules", "tsx", "dist", "cli.mjs");
/** server.ts as `npm run build` compiles it into the build (scripts/build-server.ts), which `npm start` runs. */
export const SERVER_ENTRY = path.join(DIST_DIR, "server.mjs");

/**
 * Everything the build and the server see: production, the baseline routes, a throwaway secret
 * and the database's settings (a BenchDatabase's `env`; none for the build).
 */
export function appEnv(databaseEnv: Record<string, string> | null, secret: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_DIST_DIR: DIST_DIR,
    NEXT_TELEMETRY_DISABLED: "1",
    AUTH_SECRET: secret,
    APP_URL: `http://localhost:${PORT}`,
    BENCH_BARE: "1",
  };
  // Never the developer's database or mail provider.
  for (const key of ["DATABASE_URL", "PGLITE_DIR", "RESEND_API_KEY", "ENABLE_DEV_OUTBOX"]) delete env[key];
  return { ...env, ...databaseEnv };
}

export const newSecret = () => randomBytes(36).toString("base64url"); // 48 characters

/** A Node script in its own process group, so stopping it also stops the workers it forks. */
export function spawnGroup(args: string[], env: NodeJS.ProcessEnv, stdio: "inherit" | "pipe"): ChildProcess {
  const child = spawn(process.execPath, args, { env, detached: true, stdio: ["ignore", stdio, stdio] });
  onCleanup(() => stopGroup(child));
  return child;
}

export async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  signalGroup("SIGTERM");
  if ((await Promise.race([exited.then(() => true), sleep(5000).then(() => false)])) === false) signalGroup("SIGKILL");
}

/**
 * `next build` with a custom distDir rewrites tsconfig.json (adds .next-bench type globs) and
 * next-env.d.ts (imports .next-bench types): put both back so the bench leaves no diff.
 */
async function build(env: NodeJS.ProcessEnv): Promise<void> {
  const touched = ["tsconfig.json", "next-env.d.ts"].map((file) => ({
    file,
    before: existsSync(file) ? readFileSync(file, "utf8") : null,
  }));
  const started = Date.now();
  console.log(`Building into ${DIST_DIR}/ (BENCH_SKIP_BUILD=1 reuses the last build)...`);
  try {
    // As `npm run build`: the gazetteer's index first, then Next's build, the policies of the pages
    // the guard skips (the bench's /login answers without it as production's does), the app's server.
    for (const args of [
      [TSX_CLI, "--conditions", "react-server", "scripts/build-gazetteer.ts"],
      [NEXT_BIN, "build"],
      [TSX_CLI, "scripts/static-page-headers.ts"],
      [TSX_CLI, "scripts/build-server.ts"],
    ]) {
      const child = spawnGroup(args, env, "inherit");
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      if (code !== 0) throw new Error(`${args.at(-1)} failed (exit ${code})`);
    }
  } finally {
    for (const { file, before } of touched) {
      const now = existsSync(file) ? readFileSync(file, "utf8") : null;
      if (now === before) continue;
      if (before === null) rmSync(file, { force: true });
      else writeFileSync(file, before);
    }
  }
  console.log(`Build done in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
}

let built = false;
/** The production build every section measures, made once per run (or BENCH_SKIP_BUILD's). */
export async function ensureBuild(): Promise<void> {
  if (built) return;
  if (process.env.BENCH_SKIP_BUILD === "1") {
    // The compiled server is the build's last step: with it, the build is whole.
    if (!existsSync(SERVER_ENTRY)) throw new Error(`BENCH_SKIP_BUILD=1 but there is no whole build in ${DIST_DIR}/`);
  } else {
    // The build reads no database; the secret only has to be valid.
    await build(appEnv(null, newSecret()));
  }
  built = true;
}

async function answers(): Promise<boolean> {
  try {
    const response = await fetch(`${ORIGIN}/api/csrf-token`, { signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

/** Starts the app's server on loopback only; resolves once an API route (and so the database) answers. */
export async function startServer(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; log: () => string }> {
  if (await answers()) throw new Error(`something already answers on port ${PORT}; stop it first`);
  // BENCH_CPU_PROF=<folder>: the server writes a V8 CPU profile there when it stops (the flag is not
  // allowed in NODE_OPTIONS). Node writes it only on a normal exit, hence the SIGTERM handler.
  const profile = process.env.BENCH_CPU_PROF;
  const exitOnTerm = `data:text/javascript,process.once("SIGTERM",()=>process.exit(0))`;
  const script = profile ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profile)}`, "--import", exitOnTerm, SERVER_ENTRY] : [SERVER_ENTRY];
  const child = spawnGroup(script, { ...env, HOST: "127.0.0.1", PORT: String(PORT), TRUSTED_PROXY_HOPS: "1" }, "pipe");
  const lines: string[] = [];
  // The last lines of its output, to show when it fails to start.
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString().split("\n").filter(Boolean));
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const log = () => lines.slice(-40).join("\n");
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await answers())) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${log()}`);
    if (Date.now() > deadline) throw new Error(`the server did not answer within ${READY_TIMEOUT_MS / 1000} s:\n${log()}`);
    await sleep(250);
  }
  return { child, log };
}
