/**
 * The `pages` section: the server time of the signed-in pages, each against the empty signed-in
 * page (`/dev/bare` with the same cookie: the root layout, the route guard's read of the session,
 * no data), target within 1.5x at p50; and the inbox and a conversation's messages as the API
 * serves them, against `GET /api/v2/auth/me` with the same cookie, target within 2x. On the demo
 * app (demo-app.ts) as the demo user Marisol, whole HTML read, in the bench's alternating runs
 * (BENCH_ROUNDS, BENCH_PAIR_S, BENCH_CLIENTS: each call's run right after a run of its baseline).
 */
import { mkdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { addressOf, callJson, getPage } from "./client";
import { ORIGIN, PAIRED_SETTINGS } from "./config";
import { startDemoApp } from "./demo-app";
import { alternate, type Target } from "./load";
import { printAlternate, printTable, printVerdicts } from "./report";
import { stopGroup } from "./server";

/** BENCH_PAGES_HTML: a folder that keeps each page's HTML as sized, to look into what it sends. */
const KEEP_HTML = process.env.BENCH_PAGES_HTML;
/** BENCH_PAGES: a comma-separated list of the names below (e.g. `/dashboard,/messages/{id}`) measures only those, to profile one page alone. */
const ONLY = process.env.BENCH_PAGES?.split(",").map((name) => name.trim());
const chosen = <T extends { name: string }>(targets: T[]): T[] =>
  ONLY ? targets.filter((target) => ONLY.some((name) => target.name === `GET ${name}` || target.name.startsWith(`GET ${name} `))) : targets;
const PAGE_TARGET = 1.5;
const API_TARGET = 2;

/** React's flight data in a page's HTML: what hydration reads (props of client components, server output around them). */
const FLIGHT = /<script[^>]*>self\.__next_f\.push\(([\s\S]*?)\)<\/script>/g;

/** Each page's size as the browser gets it (uncompressed): the whole HTML, and the part of it that is flight data. */
async function printSizes(paths: readonly { path: string; name: string }[], cookie: string): Promise<void> {
  const rows: string[][] = [];
  if (KEEP_HTML) mkdirSync(KEEP_HTML, { recursive: true });
  for (const { path, name } of paths) {
    const response = await fetch(`${ORIGIN}${path}`, { headers: { cookie }, redirect: "manual" });
    const html = await response.text();
    // A page that sent the visitor elsewhere (a stale cookie: /login) is not the page's size.
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    const flight = [...html.matchAll(FLIGHT)].reduce((sum, match) => sum + Buffer.byteLength(match[1]!), 0);
    if (KEEP_HTML) await writeFile(join(KEEP_HTML, `${name.replace(/[^a-z0-9]+/gi, "_")}.html`), html);
    rows.push([name, (Buffer.byteLength(html) / 1000).toFixed(1), (flight / 1000).toFixed(1)]);
  }
  printTable(["page", "HTML kB", "of it flight kB"], rows);
}

export async function benchPages(): Promise<number> {
  const app = await startDemoApp("Signed-in pages against the empty page");
  const { marisol: cookie } = app;
  try {
    const sized: { path: string; name: string }[] = [];
    const page = (path: string, name = path): Target => {
      sized.push({ path, name });
      return { name: `GET ${name}`, send: (w) => getPage(path, addressOf(w), cookie) };
    };
    const api = (path: string, name = path): Target => ({
      name: `GET ${name}`,
      send: (w) => callJson(path, addressOf(w), { headers: { cookie } }).then(() => undefined),
    });
    const pages = chosen([
      page("/dashboard"),
      page("/forum"),
      page(`/forum/post/${app.threadId}`, "/forum/post/{id}"),
      page("/messages"),
      page(`/messages/${app.conversationId}`, "/messages/{id}"),
      page("/notifications"),
      page("/settings"),
      page("/directory"),
      page("/discover"),
      page(`/profile/${app.profiledId}`, "/profile/{id}"),
    ]);
    const calls = chosen([
      api("/api/conversations", "/api/conversations (the inbox)"),
      api(`/api/conversations/${app.conversationId}/messages`, "/api/conversations/{id}/messages"),
    ]);
    const emptyPage = page("/dev/bare", "/dev/bare (cookie)");
    const me = api("/api/v2/auth/me", "/api/v2/auth/me (cookie)");
    // Warm: each route's first render and the database's first reads are no one's figure.
    for (const target of [emptyPage, me, ...pages, ...calls]) for (let i = 0; i < 10; i++) await target.send(i);
    await printSizes(sized, cookie);

    console.log(`\nEach page against ${emptyPage.name} (base), whole HTML: ${PAIRED_SETTINGS}...`);
    const onPages = await alternate(emptyPage, pages);
    printAlternate(onPages.rows);
    printVerdicts(onPages.rows, "p50", PAGE_TARGET);
    console.log(`\nThe inbox and a conversation's messages against ${me.name} (base): ${PAIRED_SETTINGS}...`);
    const onCalls = await alternate(me, calls);
    printAlternate(onCalls.rows);
    printVerdicts(onCalls.rows, "p50", API_TARGET);
    return onPages.errors + onCalls.errors;
  } finally {
    await stopGroup(app.server);
  }
}
