import { readFileSync } from "node:fs";
import path from "node:path";
import { serviceWorkerScript } from "@/lib/pwa/worker-script";

/**
 * GET /sw.js: the app's service worker (lib/pwa/worker-script.ts) at the root, so its scope is
 * the whole app. Never cached by the browser's HTTP cache, so a new build is seen at the next
 * check; its own policy lets it reach this origin only and run no other script.
 */
let script: string | null = null;

/** The build's id (a new one per build), or the deployment's where the build folder is not at hand. */
function buildVersion(): string {
  try {
    return readFileSync(
      /*turbopackIgnore: true*/ path.join(process.cwd(), process.env.NEXT_DIST_DIR || ".next", "BUILD_ID"),
      "utf8",
    ).trim();
  } catch {
    return process.env.VERCEL_DEPLOYMENT_ID ?? process.env.VERCEL_GIT_COMMIT_SHA ?? "development";
  }
}

export function GET(): Response {
  script ??= serviceWorkerScript(buildVersion());
  return new Response(script, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "no-cache, max-age=0",
      "Content-Security-Policy": "default-src 'self'",
      "Service-Worker-Allowed": "/",
    },
  });
}
