/**
 * The phone scores' section of `npm run bench` (BENCH_SECTIONS=lighthouse): Lighthouse's mobile
 * preset (its default: a mid-range phone, simulated slow 4G and 4x CPU) on the production build,
 * against Debian's Chromium, offline. Per page, the median of BENCH_LIGHTHOUSE_RUNS runs (3) of the
 * score, LCP, TBT and CLS, the pages taking turns so the machine's noise falls on all of them, and
 * /dev/bare (the root layout and a heading, BENCH_BARE=1) as the baseline of this build.
 *
 * The server is the bench's own (build, fresh database, server.ts), seeded with the demo data:
 * /dashboard, /forum, /directory, /discover and the profile of a demo couple with photos (Perpetua &
 * Silvanus: main photo, extra photos, both partners') are measured as the demo user Marisol,
 * /onboarding as a user registered through the API just before (verified through the dev
 * outbox's link), both signed in through the /login form in a browser; their session cookie goes
 * to Lighthouse as a header. The table has the four categories' scores (performance,
 * accessibility, best practices, SEO) and, for the pages of couples, how many of the faces the
 * page's HTML shows are photos rather than the placeholder (the demo seed gives every couple one).
 *
 * BENCH_LIGHTHOUSE_PAGES=/directory,/discover measures only those (and the baseline).
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { DEMO_COUPLES, DEMO_PASSWORD, demoEmail } from "../../lib/demo/data";
import { onCleanup } from "./cleanup";
import { printTable } from "./report";
import { PORT } from "./config";
import { pgliteDatabase, postgresDatabase } from "./databases";
import { appEnv, ensureBuild, newSecret, startServer, stopGroup } from "./server";
import { median } from "./stats";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
const TSX_CLI = path.join("node_modules", "tsx", "dist", "cli.mjs");
const RUNS = Math.max(1, Math.round(Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3)) || 3);
const ONBOARDING_PASSWORD = "Lighthouse#Phone26";
/** BENCH_LIGHTHOUSE_JSON=<folder>: every run's full report is kept there (its traces' evidence). */
const REPORTS = process.env.BENCH_LIGHTHOUSE_JSON;
const ONLY = process.env.BENCH_LIGHTHOUSE_PAGES?.split(",").map((page) => page.trim());
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
/** The couple whose profile is measured: a finished demo couple, so it has every photo a profile shows. */
const PROFILED = DEMO_COUPLES[1]!;

/** `label`: how the table names it (the profile's path holds an id). */
type Page = { path: string; label?: string; cookie?: string };
type Figures = {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcp: number;
  tbt: number;
  cls: number;
  fcp: number;
  version: string;
};

const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(", ");

/** A script of this repository under tsx with the server's conditions (migrate, seed). */
function runScript(script: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSX_CLI, "--conditions", "react-server", script], {
      env,
      stdio: ["ignore", "ignore", "inherit"],
    });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${script} failed (exit ${code})`))));
  });
}

/** A new account through the API, verified through the link the dev outbox holds: its profile is still to do. */
async function registerForOnboarding(origin: string): Promise<string> {
  const email = `lighthouse-${Date.now()}@bench.couples.test`;
  const registered = await fetch(`${origin}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: ONBOARDING_PASSWORD, firstName: "Robin", lastName: "Hart", dateOfBirth: "1991-06-15" }),
  });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  // The e-mail is sent after the response: poll the outbox for it.
  for (let attempt = 0; attempt < 50; attempt++) {
    const outbox = (await (await fetch(`${origin}/api/dev/outbox?${new URLSearchParams({ to: email })}`)).json()) as {
      messages: { text: string }[];
    };
    const link = outbox.messages[0]?.text.match(/https?:\/\/\S+\/verify-email\?\S+/)?.[0];
    if (link) {
      const token = new URL(link).searchParams.get("token");
      const verified = await fetch(`${origin}/api/email-verification/verify`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token, email }),
      });
      if (!verified.ok) throw new Error(`verify: ${verified.status}`);
      return email;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("the verification e-mail never reached the outbox");
}

/** Signs in through the /login form, as a person would; answers the Cookie header the browser then sends. */
async function signInCookie(origin: string, email: string, password: string, lands: RegExp): Promise<string> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage();
    await page.goto(`${origin}/login`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Let's Go!" }).click();
    await page.waitForURL(lands);
    return (await page.context().cookies(origin)).map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
  } finally {
    await browser.close();
  }
}

/** The id of the demo couple's profile Marisol opens, through the directory's search by a partner's first name. */
async function profiledCoupleId(origin: string, cookie: string): Promise<string> {
  const name = PROFILED.partnerA.firstName;
  const response = await fetch(`${origin}/api/directory?${new URLSearchParams({ q: name })}`, { headers: { cookie } });
  if (!response.ok) throw new Error(`directory search: ${response.status}`);
  const { data } = (await response.json()) as { data: { coupleId: string; coupleName: string }[] };
  const found = data.find((card) => card.coupleName.includes(name));
  if (!found) throw new Error(`the directory does not show ${name}'s couple`);
  return found.coupleId;
}

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
    version: lhr.lighthouseVersion,
  };
}

/** Runs the section; answers the number of failures (a page that could not be measured). */
export async function benchLighthouse(): Promise<number> {
  await ensureBuild();
  const database = (await postgresDatabase()) ?? pgliteDatabase();
  onCleanup(database.drop);
  const env = { ...appEnv(database.env, newSecret()), ENABLE_DEV_OUTBOX: "true" };
  console.log(`\n== Lighthouse ${RUNS}x per page, mobile preset, on ${database.label} (migrate and demo seed)...`);
  await runScript("scripts/migrate.ts", env);
  await runScript("scripts/seed/main.ts", env);
  const { child } = await startServer(env);
  // localhost, not 127.0.0.1: the app's origin (APP_URL), whose cookies the browser keeps.
  const origin = `http://localhost:${PORT}`;

  const marisol = await signInCookie(origin, demoEmail("Marisol"), DEMO_PASSWORD, /\/dashboard$/);
  const newcomer = await signInCookie(origin, await registerForOnboarding(origin), ONBOARDING_PASSWORD, /\/onboarding$/);
  const profile = `/profile/${await profiledCoupleId(origin, marisol)}`;
  const pages: Page[] = [
    { path: "/dev/bare", label: "/dev/bare (baseline)" },
    { path: "/login" },
    { path: "/register" },
    { path: "/onboarding", cookie: newcomer },
    { path: "/dashboard", cookie: marisol },
    { path: "/forum", cookie: marisol },
    { path: "/directory", cookie: marisol },
    { path: "/discover", cookie: marisol },
    { path: profile, label: "/profile/{id}", cookie: marisol },
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
    await stopGroup(child);
  }
  console.log(`Load average after: ${load()}`);

  const header = ["page", "perf", "(runs)", "a11y", "best pr.", "SEO", "LCP ms", "TBT ms", "CLS", "FCP ms", "photos"];
  const rows = pages.map(({ path: page, label }) => {
    const figures = runs.get(page)!;
    if (!figures.length) return [label ?? page, ...header.slice(1).map(() => "-")];
    const of = (key: Exclude<keyof Figures, "version">) => median(figures.map((f) => f[key]));
    return [
      label ?? page,
      of("performance").toFixed(0),
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
  const version = [...runs.values()].flat()[0]?.version ?? "?";
  console.log(`Medians of ${RUNS} runs each; Lighthouse ${version}, ${CHROMIUM}, ${os.cpus().length} CPUs.`);
  console.log(`/profile/{id}: ${PROFILED.partnerA.firstName} & ${PROFILED.partnerB.firstName}'s, as Marisol.`);
  console.log("photos: of the faces in the page's HTML, how many are photos (the rest are placeholders).");
  return failures;
}
