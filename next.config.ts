import type { NextConfig } from "next";
import { staticSecurityHeaders } from "./lib/http/security-headers";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Lets the benchmark and the browser tests build side by side without sharing .next/.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // Native and WASM packages stay outside the server bundle.
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2", "sharp"],
  // Migrations are read at start-up; serverless bundles must carry them.
  outputFileTracingIncludes: { "/**": ["./db/migrations/**/*"] },
  async headers() {
    return [{ source: "/:path*", headers: staticSecurityHeaders() }];
  },
};

export default nextConfig;
