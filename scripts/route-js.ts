/**
 * First Load JS per page, gzip, from a production build's route stats
 * (<distDir>/diagnostics/route-bundle-stats.json, written by `next build`), against a minimal
 * Next.js page's 131 kB (the reference; the goal: every page within 1.3x of it).
 *
 *   npx tsx scripts/route-js.ts [distDir]      (default: NEXT_DIST_DIR or .next)
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

const MINIMAL_PAGE_KB = 131;
const distDir = process.argv[2] ?? process.env.NEXT_DIST_DIR ?? ".next";
const stats = JSON.parse(readFileSync(path.join(distDir, "diagnostics", "route-bundle-stats.json"), "utf8")) as {
  route: string;
  firstLoadChunkPaths: string[];
}[];

const gzipped = new Map<string, number>();
const gzipKb = (file: string) => {
  let size = gzipped.get(file);
  if (size === undefined) gzipped.set(file, (size = gzipSync(readFileSync(file), { level: 9 }).length / 1000));
  return size;
};

const rows = stats
  .filter(({ route }) => !route.startsWith("/api/") && !/\.(?:png|svg|ico|webmanifest)$/.test(route))
  .map(({ route, firstLoadChunkPaths }) => ({ route, kb: firstLoadChunkPaths.reduce((sum, file) => sum + gzipKb(file), 0) }))
  .sort((a, b) => b.kb - a.kb);
console.log(`First Load JS (gzip) of ${distDir}, against a minimal page's ${MINIMAL_PAGE_KB} kB:`);
for (const { route, kb } of rows) {
  console.log(
    `${route.padEnd(28)} ${kb.toFixed(1).padStart(7)} kB  ${(kb / MINIMAL_PAGE_KB).toFixed(2)}x${kb / MINIMAL_PAGE_KB > 1.3 ? "  over 1.3x" : ""}`,
  );
}
