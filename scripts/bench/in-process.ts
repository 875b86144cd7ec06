/**
 * The in-process half of `npm run bench`: work measured inside this process, without HTTP.
 *   - gazetteer search: the server's own time per query (index built first, reported apart);
 *   - image pipeline: a 12-megapixel JPEG through `processImage` to each stored size.
 */
import os from "node:os";
import sharp from "sharp";
import { processImage } from "@/lib/images/process";
import type { ImageKind } from "@/lib/images/rules";
import { gazetteerPredictions, gazetteerStats } from "@/lib/places/gazetteer";
import { printTable } from "./report";
import { percentile } from "./stats";

/** What people type: prefixes, accents left out, two words, a country, a miss. */
export const SEARCH_QUERIES = [
  "lisb",
  "san fr",
  "sao pa",
  "new y",
  "ber",
  "tokyo",
  "mexico c",
  "par",
  "lon",
  "syd",
  "kraków",
  "cape t",
  "zzzq",
  "mu",
  "bue",
];

export type Summary = { count: number; median: number; p99: number; max: number };

function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return { count: sorted.length, median: percentile(sorted, 50), p99: percentile(sorted, 99), max: percentile(sorted, 100) };
}

export function benchGazetteer(rounds = 400): { stats: ReturnType<typeof gazetteerStats>; summary: Summary } {
  const stats = gazetteerStats(); // builds the index once, as the first search on a server would
  for (const query of SEARCH_QUERIES) gazetteerPredictions(query, 5); // warm-up
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const query of SEARCH_QUERIES) {
      const t0 = performance.now();
      gazetteerPredictions(query, 5);
      samples.push(performance.now() - t0);
    }
  }
  return { stats, summary: summarize(samples) };
}

/** A phone-camera-sized photo (4000x3000) with noise, so the JPEG decoder has real work to do. */
export function twelveMegapixelJpeg(): Promise<Buffer> {
  return sharp({
    create: { width: 4000, height: 3000, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 40 } },
  })
    .jpeg({ quality: 90 })
    .toBuffer();
}

export type ImageRow = { kind: ImageKind; images: number; perSecond: number; summary: Summary };

/** Images one after another, as one upload is handled (storeUploads processes them in turn). */
export async function benchImages(input: Buffer, perKind = 12): Promise<ImageRow[]> {
  const rows: ImageRow[] = [];
  for (const kind of ["avatar", "couple-photo"] as const) {
    await processImage(input, kind); // warm-up: sharp's thread pool and libvips caches
    const samples: number[] = [];
    const started = performance.now();
    for (let i = 0; i < perKind; i++) {
      const t0 = performance.now();
      await processImage(input, kind);
      samples.push(performance.now() - t0);
    }
    rows.push({ kind, images: perKind, perSecond: perKind / ((performance.now() - started) / 1000), summary: summarize(samples) });
  }
  return rows;
}

export async function runInProcessBenchmarks(): Promise<void> {
  const ms = (value: number) => value.toFixed(3);
  const { stats, summary } = benchGazetteer();
  console.log(
    `\nGazetteer search in process (${stats.cities} places, ${stats.keys} keys, index ${stats.source === "file" ? "read from the build's file" : "built in memory"} in ${stats.loadMs} ms):`,
  );
  console.log(
    `  ${summary.count} searches of ${SEARCH_QUERIES.length} queries, limit 5: median ${ms(summary.median)} ms, p99 ${ms(summary.p99)} ms, max ${ms(summary.max)} ms`,
  );

  const input = await twelveMegapixelJpeg();
  console.log(
    `\nImage pipeline in process (12 MP JPEG, ${(input.byteLength / 1024 / 1024).toFixed(1)} MB, ${os.cpus().length} CPUs, sharp concurrency ${sharp.concurrency()}):`,
  );
  printTable(
    ["image kind", "images", "images/s", "median (ms)", "p99 (ms)"],
    (await benchImages(input)).map((row) => [
      row.kind,
      String(row.images),
      row.perSecond.toFixed(2),
      row.summary.median.toFixed(0),
      row.summary.p99.toFixed(0),
    ]),
  );
}
