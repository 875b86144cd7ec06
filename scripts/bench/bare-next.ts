/**
 * The bench's baselines: a bare Next app (a root layout, a prerendered page and one route handler
 * answered per request, nothing else), written and built in the same run, with the same Next and
 * Node, into `<DIST_DIR>-bare/` (its build in `.next` inside), and started as Next ships it
 * (`next start`); and, for the `login` section, the same app writing a given set of security
 * headers on every page from its config (`headedBareApp`) or from a guard of its own
 * (`guardedBareApp`). BENCH_SKIP_BUILD=1 reuses their last builds too.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DIST_DIR } from "./config";
import { NEXT_BIN, spawnGroup } from "./server";

const BARE_DIR = `${DIST_DIR}-bare`;

/** Prerendered, as /login is; a route handler read per request, as /api/v2/auth/me is. */
export const BARE_PAGE = "/";
export const BARE_ROUTE = "/api/bare";

const SOURCES: Record<string, string> = {
  // A config of its own: without one, Next finds the app's (a folder up) and runs the app's checks.
  "next.config.mjs": `export default {};
`,
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

/** A bare app: its folder and its files. */
export type BareApp = { dir: string; sources: Record<string, string> };

export const BARE_APP: BareApp = { dir: BARE_DIR, sources: SOURCES };

/**
 * The bare app writing `headers` on every page from its next.config (as the app writes its first
 * pages' policies, scripts/static-page-headers.ts): a bare static page with the same strict CSP.
 */
export function headedBareApp(headers: Record<string, string>): BareApp {
  const rules = [{ source: "/:path*", headers: Object.entries(headers).map(([key, value]) => ({ key, value })) }];
  const config = `export default {
  async headers() {
    return ${JSON.stringify(rules, null, 2).replaceAll("\n", "\n    ")};
  },
};
`;
  return { dir: `${DIST_DIR}-bare-headed`, sources: { ...SOURCES, "next.config.mjs": config } };
}

/**
 * The bare app with a route guard (middleware.js, on Node as the app's) that writes `headers` on
 * every page and nothing else: the app's prerendered pages' strict CSP and security headers, kept,
 * with none of the app's own work.
 */
export function guardedBareApp(headers: Record<string, string>): BareApp {
  const guard = `import { NextResponse } from "next/server";

const HEADERS = ${JSON.stringify(headers, null, 2)};

export default function middleware() {
  const response = NextResponse.next();
  for (const [key, value] of Object.entries(HEADERS)) response.headers.set(key, value);
  return response;
}

export const config = { runtime: "nodejs", matcher: ["/((?!api/|_next/static|_next/image|favicon.ico).*)"] };
`;
  return { dir: `${DIST_DIR}-bare-guarded`, sources: { ...SOURCES, "middleware.js": guard } };
}

/** The bare app's environment: production, its own default build folder (never the bench's). */
export function bareEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NEXT_DIST_DIR: _ownBuildFolder, ...rest } = env;
  return { ...rest, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" };
}

const built = new Set<string>();
/** Writes a bare app and builds it, once per run. */
export async function ensureBareNext(env: NodeJS.ProcessEnv, app: BareApp = BARE_APP): Promise<void> {
  if (built.has(app.dir)) return;
  // A build is reused only with the same files (the guarded app's carry the headers of the day).
  const same = Object.entries(app.sources).every(([file, text]) => {
    const written = path.join(app.dir, file);
    return existsSync(written) && readFileSync(written, "utf8") === text;
  });
  const reuse = process.env.BENCH_SKIP_BUILD === "1" && same && existsSync(path.join(app.dir, ".next", "BUILD_ID"));
  if (!reuse) {
    for (const [file, text] of Object.entries(app.sources)) {
      mkdirSync(path.dirname(path.join(app.dir, file)), { recursive: true });
      writeFileSync(path.join(app.dir, file), text);
    }
    const started = Date.now();
    const child = spawnGroup([NEXT_BIN, "build", app.dir], bareEnv(env), "pipe");
    const output: string[] = [];
    child.stdout!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    if (code !== 0) throw new Error(`the bare Next app's build failed (exit ${code}):\n${output.join("").slice(-2000)}`);
    console.log(`The bare Next app built into ${app.dir}/.next in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  }
  built.add(app.dir);
}

/** `next start` of a bare app on 127.0.0.1:port. */
export const bareNextArgs = (port: number, app: BareApp = BARE_APP): string[] => [
  NEXT_BIN,
  "start",
  app.dir,
  "-p",
  String(port),
  "-H",
  "127.0.0.1",
];
