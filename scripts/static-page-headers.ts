/**
 * A step of `npm run build`, after `next build`: the header rules next.config.ts declares for the
 * pages the route guard skips (lib/csp/static-pages unguardedPageRules) get each page's policy by
 * its built inline scripts' hashes, in the build's routes, where `next start`, the app's server
 * and Vercel's builder read them. next.config.ts is read before the build renders the pages, so it
 * cannot know them. Run again on the same build, it writes the same rules.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import nextConfig from "../next.config";
import { builtPageRules, fillPageRules } from "@/lib/csp/static-pages";

// The rules serve a production build: no development allowance (eval) may be written into them.
Object.assign(process.env, { NODE_ENV: "production" });
const distDir = nextConfig.distDir ?? ".next";
const file = path.join(distDir, "routes-manifest.json");
const manifest = JSON.parse(readFileSync(file, "utf8")) as { headers: { source: string; missing?: unknown }[] };
const built = builtPageRules(distDir);
manifest.headers = fillPageRules(manifest.headers, built);
writeFileSync(file, JSON.stringify(manifest));
console.log(`The policies of ${built.map((rule) => rule.source).join(", ")} written into ${file}.`);
