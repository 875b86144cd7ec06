import type { Browser, Page } from "@playwright/test";
import { expect as baseExpect, test as base } from "./test";
import { DEMO_PASSWORD, directoryEmail } from "../../lib/demo/data";
import { STREAM_EVENTS, UNNUMBERED_EVENTS } from "../../lib/registry/live-client";
import { ownServer, type OwnServer } from "./servers";
import { csrfToken, signIn } from "./support";

/**
 * Messaging kept live by the tab's one event stream: four people of two couples with the thread
 * open, the unread counts' polls refused and the thread's loads counted (it loads once as its
 * stream comes up, for what was sent while the page loaded; its poll is off while the stream is
 * up, and a message or a read comes whole in its event). A message arrives
 * on the other three, 'Seen by' follows each read, the bell and the message badge rise and
 * clear; their server restarts under the four open tabs, a message is written on another
 * instance while it is down, and each tab resumes and receives it once. The four use a server of
 * the test's own (tests/e2e/servers.ts), so the restart stops no other test's server.
 */
const test = base.extend<{ own: OwnServer }>({
  own: async ({}, provide, testInfo) => {
    const port = Number(new URL(testInfo.project.use.baseURL!).port);
    const own = await ownServer(port, testInfo.parallelIndex);
    // On the PGlite fallback the run's database is one process's: skipped, saying why.
    testInfo.skip(own.refusal !== null, own.refusal ?? "");
    await own.start();
    await provide(own);
    await own.stop();
  },
});
// A click that opens nothing or a page that never answers fails at its step, not at the test's end.
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });
// Under load a write takes seconds to answer: what shows an update came live is that no poll or
// load could have brought it (refused or counted below), never how soon it came.
const expect = baseExpect.configure({ timeout: 30_000 });

/**
 * Seeded directory couples no other spec uses, two fresh ones per attempt (a retry or a repeat
 * never finds an earlier attempt's conversation between them).
 */
const ATTEMPTS: [[string, string], [string, string]][] = [
  [
    ["Joana", "Andre"],
    ["Clara", "Vasco"],
  ],
  [
    ["Sofia", "Goncalo"],
    ["Marta", "Nuno"],
  ],
  [
    ["Rita", "Pedro"],
    ["Alice", "Henrique"],
  ],
  [
    ["Lara", "Diogo"],
    ["Eva", "Simao"],
  ],
  [
    ["Matilde", "Rodrigo"],
    ["Nadia", "Omar"],
  ],
  [
    ["Zoe", "Samir"],
    ["Mariana", "Luca"],
  ],
];

/**
 * What each EventSource of a page asked for (its URL: where it resumed from) and received,
 * recorded in the page (window.__stream) as it arrived.
 */
type StreamRecord = { opened: number; failed: number; asked: string[]; events: { name: string; id: string; data: string }[] };

type Person = { page: Page; name: string; coupleName: string; threadLoads: number };

async function person(browser: Browser, own: OwnServer, [first, partner]: [string, string], me: 0 | 1): Promise<Person> {
  const context = await browser.newContext({ baseURL: own.url });
  // Counts reach the page only through the stream.
  for (const poll of ["**/api/notifications/unread-count", "**/api/messages/unread-count"])
    await context.route(poll, (route) => route.abort());
  // Each page counts its streams' opens and failures and keeps every event they receive.
  await context.addInitScript((names: readonly string[]) => {
    const record: StreamRecord = { opened: 0, failed: 0, asked: [], events: [] };
    Object.assign(window, { __stream: record });
    const Native = window.EventSource;
    window.EventSource = class extends Native {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        record.asked.push(String(url));
        this.addEventListener("open", () => record.opened++);
        this.addEventListener("error", () => record.failed++);
        for (const name of names)
          this.addEventListener(name, (event) => {
            const { lastEventId, data } = event as MessageEvent<string>;
            record.events.push({ name, id: lastEventId, data });
          });
      }
    };
  }, STREAM_EVENTS);
  const page = await context.newPage();
  const name = me === 0 ? first : partner;
  const who: Person = { page, name, coupleName: `${first} & ${partner}`, threadLoads: 0 };
  // The thread is painted by the server, loaded once as its stream comes up (what was sent while
  // the page loaded), then changes only through the stream: its loads are counted.
  await context.route("**/api/conversations/*/messages*", (route) => {
    if (route.request().method() === "GET") who.threadLoads++;
    return route.fallback();
  });
  await signIn(page, { email: directoryEmail(name), password: DEMO_PASSWORD });
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  return who;
}

const thread = (who: Person) => who.page.getByRole("log", { name: "Messages" });
const bell = (who: Person) => who.page.getByRole("button", { name: /^Notifications(, .+ unread)?$/ });
const badge = (who: Person) => who.page.locator('[data-testid="messages-badge"]:visible');
const stream = (who: Person) => who.page.evaluate(() => (window as unknown as { __stream: StreamRecord }).__stream);

/**
 * The page's stream has opened since it loaded: its scripts ran (a click lands on a hydrated page,
 * not on server-rendered markup that ignores it) and the keys it feeds stopped polling.
 */
async function streaming(who: Person): Promise<void> {
  await expect.poll(async () => (await stream(who)).opened, { message: `${who.name}'s stream opens` }).toBeGreaterThan(0);
}

async function open(who: Person, path: string): Promise<void> {
  await who.page.goto(path);
  await streaming(who);
}

async function send(who: Person, text: string) {
  await who.page.getByRole("textbox", { name: "Message" }).fill(text);
  await who.page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(thread(who).getByText(text)).toBeVisible();
}

test("four people with the thread open: a message, 'Seen by', the bell, the badge and a server restart, live through the stream", async ({
  browser,
  own,
  playwright,
}, testInfo) => {
  test.setTimeout(240_000);
  const attempt = ATTEMPTS[testInfo.repeatEachIndex * (testInfo.project.retries + 1) + testInfo.retry];
  if (!attempt) throw new Error(`${ATTEMPTS.length} attempts have seeded couples of their own: repeat or retry fewer`);
  const [joanas, claras] = attempt;
  const joana = await person(browser, own, joanas, 0);
  const andre = await person(browser, own, joanas, 1);
  const clara = await person(browser, own, claras, 0);
  const vasco = await person(browser, own, claras, 1);
  const everyone = [joana, andre, clara, vasco];

  // Joana says hello; Clara accepts from her requests.
  await open(joana, `/directory?q=${clara.name}`);
  await joana.page.getByRole("list", { name: "Couples" }).getByRole("link").filter({ hasText: clara.coupleName }).first().click();
  // Their profile, once the navigation has landed: the directory's card has a 'Say hello' of the
  // same name, whose dialog would leave with the directory.
  await expect(joana.page.getByRole("heading", { level: 1, name: clara.coupleName })).toBeVisible();
  await joana.page.getByRole("button", { name: `Say hello to ${clara.coupleName}` }).click();
  const dialog = joana.page.getByRole("dialog", { name: `Say hello to ${clara.coupleName}` });
  await dialog.getByLabel("Note").fill("Fancy a swim at Cascais?");
  await dialog.getByRole("button", { name: "Send request" }).click();
  await expect(joana.page.getByText("Request sent", { exact: true }).first()).toBeVisible();
  // The button that opened the dialog is gone: focus is on what replaced it, not back at the page's start.
  await expect(joana.page.getByText("Request sent", { exact: true }).first()).toBeFocused();
  await open(clara, "/messages?tab=requests");
  await streaming(andre);
  await clara.page.getByRole("button", { name: "Accept" }).click();
  await expect(clara.page).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);

  // The bell: the accept reaches Andre's open page; he reads it on another device and it clears.
  await expect(bell(andre)).toHaveAccessibleName("Notifications, 1 unread");
  const marked = await andre.page.request.patch("/api/notifications/read", {
    headers: { "X-CSRF-Token": await csrfToken(andre.page) },
    data: { mark_all: true },
  });
  expect(marked.status()).toBe(200);
  await expect(bell(andre)).toHaveAccessibleName("Notifications");
  const conversation = new URL(clara.page.url()).pathname;
  for (const who of [joana, andre, vasco]) await open(who, conversation);
  for (const who of everyone) await streaming(who);
  for (const who of everyone) await expect(who.page.getByRole("textbox", { name: "Message" })).toBeVisible();

  // Quiet: no thread polls while the stream is up; each loaded at most once, as its stream came up.
  await joana.page.waitForTimeout(10_000);
  const opening = everyone.map((who) => who.threadLoads);
  for (const loads of opening) expect(loads).toBeLessThanOrEqual(1);

  // Joana writes: the three others see it; as each has read it, 'Seen by' follows on Joana's
  // screen. The message and the reads come in the events: no thread loads.
  await send(joana, "Saturday at ten?");
  for (const other of [andre, clara, vasco]) await expect(thread(other).getByText("Saturday at ten?")).toBeVisible();
  await expect(thread(joana).getByText(/^Seen by \w+, \w+ and \w+$/)).toBeVisible();
  expect(everyone.map((who) => who.threadLoads)).toEqual(opening);

  // Their server goes away under the four open tabs; Clara writes through another instance of
  // the same deployment (Playwright's) while each tab's stream is down.
  const streams = await Promise.all(everyone.map(stream));
  await own.stop();
  for (const [index, who] of everyone.entries())
    await expect
      .poll(async () => (await stream(who)).failed, { message: `${who.name}'s stream fails` })
      .toBeGreaterThan(streams[index]!.failed);
  const elsewhere = await playwright.request.newContext({
    baseURL: testInfo.project.use.baseURL,
    storageState: await clara.page.context().storageState(),
  });
  const written = await elsewhere.post(`/api${conversation.replace("/messages/", "/conversations/")}/messages`, {
    headers: { "X-CSRF-Token": ((await (await elsewhere.get("/api/csrf-token")).json()) as { csrfToken: string }).csrfToken },
    data: { body: "Or Sunday, if the sea is calmer?" },
  });
  expect(written.status()).toBe(201);
  const whileDown = ((await written.json()) as { data: { id: string } }).data.id;
  await elsewhere.dispose();

  // Back up: each tab opens its stream again, resumes after its last event and receives the
  // message once ('Seen by' follows the reads of the three others as before). While the stream
  // was down the threads polled and failed: their server was away.
  await own.start();
  for (const [index, who] of everyone.entries()) {
    await expect
      .poll(async () => (await stream(who)).opened, { message: `${who.name}'s stream opens again`, timeout: 30_000 })
      .toBeGreaterThan(streams[index]!.opened);
    await expect(thread(who).getByText("Or Sunday, if the sea is calmer?")).toBeVisible();
  }
  for (const who of everyone) {
    // The event may come after the thread's load showed the message: a stream that opens and
    // ends at once (a cold instance's first query failing) counts as opened, and the next one
    // resumes. What it asked for is in the message, should it never come.
    const resumed = async () => {
      const { asked, events } = await stream(who);
      const delivered = events.filter((event) => event.name === "message" && (JSON.parse(event.data) as { id: string }).id === whileDown);
      return { messageEvents: delivered.length, asked };
    };
    await expect
      .poll(resumed, { message: `${who.name}'s stream delivers the message written while down, once`, timeout: 30_000 })
      .toMatchObject({ messageEvents: 1 });
    // Every stored event once and in order, across the restart ('... is typing' has no id of its own).
    const ids = (await stream(who)).events.filter((event) => !UNNUMBERED_EVENTS.includes(event.name)).map((event) => Number(event.id));
    expect(ids, `${who.name}'s event ids`).toEqual([...new Set(ids)].sort((a, b) => a - b));
    await expect(thread(who).getByText("Or Sunday, if the sea is calmer?")).toHaveCount(1);
  }
  await expect(thread(clara).getByText(/^Seen by \w+, \w+ and \w+$/)).toBeVisible();

  // Vasco steps away: Andre's next message raises his badge, reading it clears it.
  await open(vasco, "/directory");
  await send(andre, "We will bring the umbrella.");
  await expect(badge(vasco)).toHaveText("1");
  await open(vasco, conversation);
  await expect(thread(vasco).getByText("We will bring the umbrella.")).toBeVisible();
  await expect(badge(vasco)).toHaveCount(0);
});
