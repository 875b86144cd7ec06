import type { APIRequestContext, Browser, BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./test";
import { DEMO_PASSWORD, directoryEmail } from "../../lib/demo/data";
import { STREAM_EVENTS } from "../../lib/registry/live-client";
import { csrfToken, signIn } from "./support";

/**
 * One live connection per browser: one person with ten tabs of one browser context (the
 * dashboard, the directory, messages, the forum, a profile and five open threads) over the e2e
 * server's HTTP/1.1, where a browser opens six connections to a host. Every tab loads; the
 * server holds one stream for that browser; a count shows in every tab's title at once; a
 * message from each of five other couples shows in its open thread (how soon is recorded, the
 * target 2 s); closing the tab that holds the stream hands it to another (how soon is recorded,
 * the target 2 s), with no message lost or shown twice. The unread counts' polls and the threads'
 * loads are refused: what changes on screen came down the one stream.
 */
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

/** Seeded directory couples no other spec uses: Amelia holds the tabs, the five others write to her. */
const HOLDER = "Amelia & Jack";
const WRITER_COUPLES = ["Hanna & Lukas", "Lena & Felix", "Mila & Jonas", "Emma & Louis", "Chloe & Hugo"] as const;
const WRITERS = WRITER_COUPLES.map((couple) => couple.split(" & ")[0]!);

/** What each EventSource of a page did (window.__stream), recorded as it happened. */
type StreamRecord = { opened: number; created?: number; openedAt?: number; events: { name: string; id: string }[] };

const LIVE_WITHIN_MS = 2_000;
const PHASES = ["are you around?", "before the handover", "during the handover", "after the handover"] as const;

async function signedIn(browser: Browser, firstName: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, { email: directoryEmail(firstName), password: DEMO_PASSWORD });
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  return { context, page };
}

const call = async (page: Page, method: "get" | "post", path: string, data?: unknown) => {
  const headers: Record<string, string> = method === "post" ? { "X-CSRF-Token": await csrfToken(page) } : {};
  const response = await page.request[method](path, { headers, data });
  expect(response.ok(), `${method} ${path}: ${response.status()}`).toBe(true);
  return ((await response.json()) as { data: unknown }).data;
};

async function coupleIdOf(page: Page, coupleName: string): Promise<string> {
  const found = (await call(page, "get", `/api/directory?q=${encodeURIComponent(coupleName.split(" ")[0]!)}`)) as {
    coupleId: string;
    coupleName: string;
  }[];
  const couple = found.find((card) => card.coupleName === coupleName);
  if (!couple) throw new Error(`${coupleName} is not in the directory: ${JSON.stringify(found.map((card) => card.coupleName))}`);
  return couple.coupleId;
}

type InboxItem = { id: string; couple: { coupleName: string }; lastMessage: { id: string } | null; unreadCount: number };

/** Amelia's conversation with each writer, in WRITERS' order: made once (hello, accept), reused by a retry. */
async function conversationsWithWriters(holder: Page, writers: { page: Page }[], holderId: string): Promise<string[]> {
  const inbox = async () => (await call(holder, "get", "/api/conversations")) as InboxItem[];
  const withWriter = (items: InboxItem[], name: string) => items.find((item) => item.couple.coupleName.startsWith(`${name} &`));
  type Request = { id: string; couple: { coupleName: string } };
  const incoming = async () => (await call(holder, "get", "/api/connections?box=incoming")) as Request[];
  const fromWriter = (requests: Request[], name: string) => requests.find((request) => request.couple.coupleName.startsWith(`${name} &`));
  const [talking, waiting] = [await inbox(), await incoming()];
  for (const [index, writer] of writers.entries())
    if (!withWriter(talking, WRITERS[index]!) && !fromWriter(waiting, WRITERS[index]!))
      await call(writer.page, "post", "/api/connections", { coupleId: holderId, note: `Hello from ${WRITERS[index]}` });
  const requests = await incoming();
  for (const name of WRITERS) {
    const request = fromWriter(requests, name);
    if (request) await call(holder, "post", `/api/connections/${request.id}/accept`);
  }
  const items = await inbox();
  return Promise.all(
    WRITERS.map(async (name) => {
      const item = withWriter(items, name);
      if (!item) throw new Error(`no conversation with ${name}: ${JSON.stringify(items.map((each) => each.couple.coupleName))}`);
      if (item.unreadCount > 0 && item.lastMessage)
        await call(holder, "post", `/api/conversations/${item.id}/read`, { upTo: item.lastMessage.id });
      return item.id;
    }),
  );
}

const openStreams = async (request: APIRequestContext) => ((await (await request.get("/api/dev/streams")).json()) as { open: number }).open;
const record = (page: Page) => page.evaluate(() => (window as unknown as { __stream: StreamRecord }).__stream);
const thread = (page: Page) => page.getByRole("log", { name: "Messages" });

test("ten tabs of one browser share one live stream: all load, a message shows in every open thread, the stream hands over on close", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  // A retry's messages say which try wrote them: each thread then shows each of this try's once.
  const said = (name: string, phase: (typeof PHASES)[number]) =>
    `${name}: ${phase}${test.info().retry ? ` (try ${test.info().retry + 1})` : ""}`;
  const amelia = await signedIn(browser, HOLDER.split(" & ")[0]!);
  const writers = await Promise.all(WRITERS.map((name) => signedIn(browser, name)));

  // Each writer says hello; Amelia accepts: five conversations. A retry finds them made by the
  // first try, and reads what that try left unread, so its counts start from nothing.
  const holderId = await coupleIdOf(writers[0]!.page, HOLDER);
  const conversations = await conversationsWithWriters(amelia.page, writers, holderId);
  const profile = `/profile/${await coupleIdOf(amelia.page, WRITER_COUPLES[0])}`;
  await amelia.page.close();

  // Counts and threads reach the tabs only through the stream.
  const { context } = amelia;
  for (const poll of ["**/api/notifications/unread-count", "**/api/messages/unread-count"])
    await context.route(poll, (route) => route.abort());
  await context.route("**/api/conversations/*/messages*", (route) =>
    route.request().method() === "GET" ? route.abort() : route.fallback(),
  );
  await context.addInitScript((names: readonly string[]) => {
    const seen: StreamRecord = { opened: 0, events: [] };
    Object.assign(window, { __stream: seen });
    const Native = window.EventSource;
    window.EventSource = class extends Native {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        seen.created = Date.now();
        this.addEventListener("open", () => {
          seen.opened++;
          seen.openedAt = Date.now();
        });
        for (const name of names)
          this.addEventListener(name, (event) => seen.events.push({ name, id: (event as MessageEvent).lastEventId }));
      }
    };
  }, STREAM_EVENTS);
  // When each message's text first appeared in the page (the browser's clock is this machine's).
  await context.addInitScript(
    (texts: string[]) => {
      const seenAt: Record<string, number> = {};
      Object.assign(window, { __seenAt: seenAt });
      new MutationObserver((records) => {
        for (const added of records.flatMap((record) => [...record.addedNodes]))
          for (const text of texts) if (!(text in seenAt) && added.textContent?.includes(text)) seenAt[text] = Date.now();
      }).observe(document, { childList: true, subtree: true });
    },
    WRITERS.flatMap((name) => PHASES.map((phase) => said(name, phase))),
  );

  // Ten tabs, each loaded whole (a seventh stream would have waited for a free connection):
  // first the five without a thread.
  const tabs: Page[] = [];
  const openTab = async (path: string) => {
    const tab = await context.newPage();
    const started = Date.now();
    await tab.goto(path, { waitUntil: "load", timeout: 20_000 });
    await expect(tab.getByRole("heading", { level: 1 }).first()).toBeVisible();
    test.info().annotations.push({ type: "tab loaded", description: `${path}: ${Date.now() - started} ms` });
    tabs.push(tab);
  };
  for (const path of ["/dashboard", "/directory", "/messages", "/forum", profile]) await openTab(path);

  // One stream for the browser: the first tab holds it, the server counts one.
  await expect.poll(async () => (await record(tabs[0]!)).opened).toBe(1);
  await expect.poll(() => openStreams(context.request)).toBe(1);

  // A message: the unread count shows in every tab's title at once, '(1) Dashboard · Two of Us'.
  await call(writers[0]!.page, "post", `/api/conversations/${conversations[0]}/messages`, { body: `${WRITERS[0]} says hi` });
  await expect(tabs[0]!).toHaveTitle(/^\(1\) Dashboard · Two of Us$/);
  for (const tab of tabs) await expect(tab).toHaveTitle(/^\(1\) .+ · Two of Us$/);

  // Then the five threads; the first reads the message, and every title drops the count.
  for (const id of conversations) await openTab(`/messages/${id}`);
  const threads = tabs.slice(5);
  for (const tab of threads) await expect(tab.getByRole("textbox", { name: "Message" })).toBeVisible();
  for (const tab of tabs) await expect(tab).toHaveTitle(/^[^(].* · Two of Us$/);
  for (const tab of tabs.slice(1)) expect((await record(tab)).opened).toBe(0);
  expect(await openStreams(context.request)).toBe(1);

  // Each writer writes: their message shows in Amelia's open thread with them (target: within 2 s of its answer).
  const writeAll = async (phase: (typeof PHASES)[number]) => {
    const written: number[] = [];
    for (const [index, writer] of writers.entries()) {
      await call(writer.page, "post", `/api/conversations/${conversations[index]}/messages`, { body: said(WRITERS[index]!, phase) });
      written.push(Date.now());
    }
    return written;
  };
  const written = await writeAll("are you around?");
  for (const [index, tab] of threads.entries()) await expect(thread(tab).getByText(said(WRITERS[index]!, "are you around?"))).toBeVisible();
  // From the write's answer to the text in its thread (0 when the event came before the answer was read).
  const shownAfter = await Promise.all(
    threads.map(async (tab, index) => {
      const seenAt = await tab.evaluate(() => (window as unknown as { __seenAt: Record<string, number> }).__seenAt);
      return Math.max(0, seenAt[said(WRITERS[index]!, "are you around?")]! - written[index]!);
    }),
  );
  // The figure, not a bound: under load a write's event takes seconds on this machine's two cores
  // (messages-live.spec.ts says the same); what shows it came live is that nothing else could bring it.
  test.info().annotations.push({ type: "shown after its write (ms, target under 2,000)", description: shownAfter.join(", ") });

  // The tab holding the stream closes between two messages: the next takes over and resumes
  // from the last event id, so each thread shows both, once.
  await writeAll("before the handover");
  await tabs[0]!.close();
  const closed = Date.now();
  const remaining = tabs.slice(1);
  // Written while the stream changes hands.
  const during = writeAll("during the handover");
  // Another tab takes the stream over at once (its EventSource made) and it opens as soon as the server answers.
  const takenOver = async () => (await Promise.all(remaining.map(record))).filter((seen) => seen.created !== undefined);
  // Read in the pages (their clock is this machine's): how long the poll takes to look is not counted.
  await expect.poll(async () => (await takenOver()).length, { timeout: 30_000 }).toBe(1);
  await expect.poll(async () => (await takenOver())[0]!.opened, { timeout: 30_000 }).toBe(1);
  const [next] = await takenOver();
  // The figure, not a bound (as above): a whole CI run at load 15-20 once saw no tab take over within 10 s.
  test.info().annotations.push({
    type: `handover (target under ${LIVE_WITHIN_MS} ms)`,
    description: `another tab's stream made ${next!.created! - closed} ms and open ${next!.openedAt! - closed} ms after the close returned`,
  });
  await during;
  await writeAll("after the handover");
  for (const [index, tab] of threads.entries()) {
    const name = WRITERS[index]!;
    for (const text of PHASES.map((phase) => said(name, phase))) await expect(thread(tab).getByText(text, { exact: true })).toHaveCount(1);
  }
  const opened = await Promise.all(remaining.map(async (tab) => (await record(tab)).opened));
  expect(opened.filter((count) => count > 0)).toHaveLength(1);
  await expect.poll(() => openStreams(context.request)).toBe(1);

  await Promise.all([context, ...writers.map((writer) => writer.context)].map((each) => each.close()));
});
