/**
 * The phone scores' section of `npm run bench` (BENCH_SECTIONS=lighthouse): Lighthouse's mobile
 * preset (its default: a mid-range phone, simulated slow 4G and 4x CPU) on the production build,
 * against Debian's Chromium, offline. Per page, the median of BENCH_LIGHTHOUSE_RUNS runs (3) of the
 * score, LCP, TBT and CLS, the pages taking turns so the machine's noise falls on all of them, and
 * /dev/bare (the root layout and a heading, BENCH_BARE=1) as the baseline of this build.
 *
 * The app is the demo app (demo-app.ts: the bench's build and server, the demo seed, a
 * conversation made through the API): /dashboard, /forum, a forum thread of Marisol's, /messages,
 * the conversation, /settings, /directory, /discover and the profile of a demo couple with photos
 * are measured as the demo user Marisol, /onboarding as an account registered just before; their
 * session cookie goes to Lighthouse as a header. The table has the four categories' scores
 * (performance, accessibility, best practices, SEO), the target where the page has one, and, for
 * the pages of couples, how many of the faces the page's HTML shows are photos rather than the
 * placeholder (the demo seed gives every couple one).
 *
 * BENCH_LIGHTHOUSE_PAGES=/directory,/discover measures only those (and the baseline).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM, PROFILED, startDemoApp } from "./demo-app";
import { printTable } from "./report";
import { stopGroup } from "./server";
import { median } from "./stats";

const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
const RUNS = Math.max(1, Math.round(Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3)) || 3);
/** BENCH_LIGHTHOUSE_JSON=<folder>: every run's full report is kept there (its traces' evidence). */
const REPORTS = process.env.BENCH_LIGHTHOUSE_JSON;
const ONLY = process.env.BENCH_LIGHTHOUSE_PAGES?.split(",").map((page) => page.trim());
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;

/** `label`: how the table names it (the profile's path holds an id). */
type Page = { path: string; label?: string; cookie?: string; target?: number };
/** The performance score the pages a couple opens most must reach, median of the runs. */
const TARGET_SCORE = 98;
type Figures = {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcp: number;
  tbt: number;
  cls: number;
  fcp: number;
  /** Lighthouse's BenchmarkIndex of this host's CPU: its mobile preset's 4x CPU slowdown is the same factor on any host, so a slower host scores lower. */
  benchmarkIndex: number;
  version: string;
};

const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(", ");

/** Faces in a page's HTML: photos, and placeholders where a couple or partner has none (FacePhoto). */
async function faces(url: string, cookie: string | undefined): Promise<string> {
  const html = await (await fetch(url, { headers: cookie ? { cookie } : {} })).text();
  const placeholders = html.split('data-testid="face-placeholder"').length - 1;
  const photos = html.match(/<img [^>]*src="\/api\/images\//g)?.length ?? 0;
  return photos + placeholders ? `${photos}/${photos + placeholders}` : "-";
}

/** One Lighthouse run of the mobile preset, its four categories, in a browser of its own (as the CLI does). */
async function measure(url: string, cookie: string | undefined): Promise<Figures> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
  try {
    return await measureIn(chrome.port, url, cookie);
  } finally {
    chrome.kill();
  }
}

async function measureIn(port: number, url: string, cookie: string | undefined): Promise<Figures> {
  const result = await lighthouse(url, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: [...CATEGORIES],
    extraHeaders: cookie ? { cookie } : undefined,
  });
  if (!result) throw new Error(`${url}: Lighthouse gave no result`);
  const { lhr } = result;
  if (REPORTS) {
    mkdirSync(REPORTS, { recursive: true });
    writeFileSync(path.join(REPORTS, `${new URL(url).pathname.slice(1).replaceAll("/", "-")}-${Date.now()}.json`), JSON.stringify(lhr));
  }
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const figure = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const score = (category: (typeof CATEGORIES)[number]) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
  return {
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    seo: score("seo"),
    fcp: figure("first-contentful-paint"),
    lcp: figure("largest-contentful-paint"),
    tbt: figure("total-blocking-time"),
    cls: figure("cumulative-layout-shift"),
    benchmarkIndex: lhr.environment.benchmarkIndex,
    version: lhr.lighthouseVersion,
  };
}

/** Runs the section; answers the number of failures (a page that could not be measured). */
export async function benchLighthouse(): Promise<number> {
  const app = await startDemoApp(`Lighthouse ${RUNS}x per page, mobile preset`);
  const { origin, marisol, newcomer } = app;
  // At least TARGET_SCORE on the pages a couple opens most.
  const pages: Page[] = [
    { path: "/dev/bare", label: "/dev/bare (baseline)" },
    { path: "/login" },
    { path: "/register" },
    { path: "/onboarding", cookie: newcomer, target: TARGET_SCORE },
    { path: "/dashboard", cookie: marisol, target: TARGET_SCORE },
    { path: "/forum", cookie: marisol, target: TARGET_SCORE },
    { path: `/forum/post/${app.threadId}`, label: "/forum/post/{id}", cookie: marisol, target: TARGET_SCORE },
    { path: "/messages", cookie: marisol, target: TARGET_SCORE },
    { path: `/messages/${app.conversationId}`, label: "/messages/{id}", cookie: marisol, target: TARGET_SCORE },
    { path: "/settings", cookie: marisol, target: TARGET_SCORE },
    { path: "/directory", cookie: marisol },
    { path: "/discover", cookie: marisol },
    { path: `/profile/${app.profiledId}`, label: "/profile/{id}", cookie: marisol },
  ].filter((page) => !ONLY || page.path === "/dev/bare" || ONLY.includes(page.label ?? page.path));
  const shown = new Map(
    await Promise.all(pages.map(async (page) => [page.path, await faces(`${origin}${page.path}`, page.cookie)] as const)),
  );

  const runs = new Map<string, Figures[]>(pages.map((page) => [page.path, []]));
  let failures = 0;
  console.log(`Load average before: ${load()}`);
  try {
    // Warm: each page once (the server's first render of a route, the browser's first start).
    for (const page of pages) await measure(`${origin}${page.path}`, page.cookie).catch(() => undefined);
    for (let round = 0; round < RUNS; round++) {
      for (let k = 0; k < pages.length; k++) {
        const page = pages[(k + round) % pages.length]!;
        // A loaded machine sometimes loses a trace (NO_NAVSTART): one more try before it counts.
        for (let attempt = 1; attempt <= 2; attempt++) {
          try {
            runs.get(page.path)!.push(await measure(`${origin}${page.path}`, page.cookie));
            break;
          } catch (error) {
            console.error(`${error instanceof Error ? error.message : String(error)}${attempt === 1 ? " (retrying)" : ""}`);
            if (attempt === 2) failures++;
          }
        }
      }
    }
  } finally {
    await stopGroup(app.server);
  }
  console.log(`Load average after: ${load()}`);

  const header = ["page", "perf", "target", "(runs)", "a11y", "best pr.", "SEO", "LCP ms", "TBT ms", "CLS", "FCP ms", "photos"];
  const rows = pages.map(({ path: page, label, target }) => {
    const figures = runs.get(page)!;
    if (!figures.length) return [label ?? page, ...header.slice(1).map(() => "-")];
    const of = (key: Exclude<keyof Figures, "version">) => median(figures.map((f) => f[key]));
    return [
      label ?? page,
      of("performance").toFixed(0),
      target === undefined ? "" : `${of("performance") >= target ? "met" : "MISSED"} (>=${target})`,
      figures.map((f) => f.performance).join(" "),
      of("accessibility").toFixed(0),
      of("bestPractices").toFixed(0),
      of("seo").toFixed(0),
      of("lcp").toFixed(0),
      of("tbt").toFixed(0),
      of("cls").toFixed(3),
      of("fcp").toFixed(0),
      shown.get(page)!,
    ];
  });
  printTable(header, rows);
  const all = [...runs.values()].flat();
  const version = all[0]?.version ?? "?";
  console.log(`Medians of ${RUNS} runs each; Lighthouse ${version}, ${CHROMIUM}, ${os.cpus().length} CPUs.`);
  // Scores from hosts of different speed compare only beside this (Lighthouse's docs/throttling.md).
  if (all.length)
    console.log(
      `This host's BenchmarkIndex (Lighthouse's CPU benchmark, higher is faster): median ${median(all.map((f) => f.benchmarkIndex)).toFixed(0)}.`,
    );
  console.log(`/profile/{id}: ${PROFILED.partnerA.firstName} & ${PROFILED.partnerB.firstName}'s, as Marisol.`);
  console.log("photos: of the faces in the page's HTML, how many are photos (the rest are placeholders).");
  return failures;
}
