import type { NextConfig } from "next";
import { staticSecurityHeaders, unhashedPageContentSecurityPolicy } from "./lib/csp/headers";
import { unguardedPageRules } from "./lib/csp/static-pages";

const testsBuild = process.env.TESTS_BUILD === "1";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // A fresh server loads a route's code on its first request, not every route's before its first
  // answer (Next's default, seconds on a small machine): a cold start answers as soon as it can.
  // The test run's builds (TESTS_BUILD=1, scripts/test-all.sh) are thrown away after one use, and
  // the run has checked the types already: writing a compile cache and checking again is waste.
  experimental: { preloadEntriesOnStart: false, turbopackFileSystemCacheForBuild: !testsBuild },
  typescript: { ignoreBuildErrors: testsBuild },
  // Lets the benchmark and the browser tests build side by side without sharing .next/.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // Native and WASM packages stay outside the server bundle.
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2", "sharp"],
  // Read from disk at run time (migrations, or their journal in serverless mode, at start-up; the
  // offline gazetteer's index, written by `npm run build`, on the first search): serverless
  // bundles must carry them.
  outputFileTracingIncludes: { "/**": ["./db/migrations/**/*", "./lib/places/gazetteer.idx"] },
  async headers() {
    // The pages the route guard skips get their policy here; `npm run build` fills in their hashes.
    return [{ source: "/:path*", headers: staticSecurityHeaders() }, ...unguardedPageRules(unhashedPageContentSecurityPolicy)];
  },
};

export default nextConfig;
