/**
 * The deploy section's baseline: a bare Next app (a root layout, a prerendered page and one route
 * handler answered per request, nothing else), written and built in the same run, with the same
 * Next and Node, into `<DIST_DIR>-bare/` (its build in `.next` inside), and started as Next ships
 * it (`next start`). BENCH_SKIP_BUILD=1 reuses its last build too.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DIST_DIR } from "./config";
import { NEXT_BIN, spawnGroup } from "./server";

export const BARE_DIR = `${DIST_DIR}-bare`;

/** Prerendered, as /login is; a route handler read per request, as /api/v2/auth/me is. */
export const BARE_PAGE = "/";
export const BARE_ROUTE = "/api/bare";

const SOURCES: Record<string, string> = {
  "app/layout.jsx": `export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
`,
  "app/page.jsx": `export default function Page() {
  return <h1>Bare</h1>;
}
`,
  "app/api/bare/route.js": `export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ ok: true });
}
`,
};

/** The bare app's environment: production, its own default build folder (never the bench's). */
export function bareEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NEXT_DIST_DIR: _ownBuildFolder, ...rest } = env;
  return { ...rest, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" };
}

let built = false;
/** Writes the bare app and builds it, once per run. */
export async function ensureBareNext(env: NodeJS.ProcessEnv): Promise<void> {
  if (built) return;
  const reuse = process.env.BENCH_SKIP_BUILD === "1" && existsSync(path.join(BARE_DIR, ".next", "BUILD_ID"));
  if (!reuse) {
    for (const [file, text] of Object.entries(SOURCES)) {
      mkdirSync(path.dirname(path.join(BARE_DIR, file)), { recursive: true });
      writeFileSync(path.join(BARE_DIR, file), text);
    }
    const started = Date.now();
    const child = spawnGroup([NEXT_BIN, "build", BARE_DIR], bareEnv(env), "pipe");
    const output: string[] = [];
    child.stdout!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    if (code !== 0) throw new Error(`the bare Next app's build failed (exit ${code}):\n${output.join("").slice(-2000)}`);
    console.log(`The bare Next app built into ${BARE_DIR}/.next in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  }
  built = true;
}

/** `next start` of the bare app on 127.0.0.1:port. */
export const bareNextArgs = (port: number): string[] => [NEXT_BIN, "start", BARE_DIR, "-p", String(port), "-H", "127.0.0.1"];
