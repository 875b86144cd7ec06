/**
 * A step of `npm run build`, after `next build`: the policies of the pages a visitor opens first
 * (lib/csp/static-pages UNGUARDED_PAGES) added to the build's routes, where `next start` and
 * Vercel read header rules. Their inline scripts' hashes exist only once the build has rendered
 * them, so next.config.ts (read before it) cannot hold them. Run again on the same build, it
 * replaces its own rules rather than adding them twice.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildCustomRoute } from "next/dist/lib/build-custom-route";
import nextConfig from "../next.config";
import { staticPageHeaderRules, UNGUARDED_PAGES } from "@/lib/csp/static-pages";

type ManifestHeader = { source: string; missing?: unknown[] };
// The rules serve a production build: no development allowance (eval) may be written into them.
Object.assign(process.env, { NODE_ENV: "production" });
const distDir = nextConfig.distDir ?? ".next";
const file = path.join(distDir, "routes-manifest.json");
const manifest = JSON.parse(readFileSync(file, "utf8")) as { headers: ManifestHeader[] };
const ours = (rule: ManifestHeader) => rule.missing !== undefined && (UNGUARDED_PAGES as readonly string[]).includes(rule.source);
manifest.headers = [
  ...manifest.headers.filter((rule) => !ours(rule)),
  // Compiled as Next compiles next.config.ts's rules (the regex beside each source).
  ...staticPageHeaderRules(distDir).map((rule) => buildCustomRoute("header", rule)),
];
writeFileSync(file, JSON.stringify(manifest));
console.log(`The policies of ${UNGUARDED_PAGES.join(", ")} written into ${file}.`);
