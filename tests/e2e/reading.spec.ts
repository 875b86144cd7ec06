import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { LAPTOP, PHONE } from "./checks";
import { csrfToken, holdScripts, newCouple, startConversation } from "./support";
import { instrument } from "./shifts";

/**
 * A read position follows what its reader was shown (ARCHITECTURE.md: written only when a message
 * is shown, never for one's own): scrolled up in an open conversation, a new message stays unread
 * until the reader is back at the bottom; one's own message never becomes one's read position. The
 * page opens at the newest message before any script runs.
 * Couples of its own (newCouple).
 */
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

const thread = (page: Page) => page.getByRole("log", { name: "Messages" });

async function write(page: Page, conversationId: string, body: string): Promise<string> {
  const response = await page.request.post(`/api/conversations/${conversationId}/messages`, {
    headers: { "X-CSRF-Token": await csrfToken(page) },
    data: { body },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

const unread = async (page: Page) =>
  ((await (await page.request.get("/api/messages/unread-count")).json()) as { data: { unread_count: number } }).data.unread_count;

async function readPosition(page: Page, conversationId: string, firstName: string): Promise<string | null> {
  const answer = (await (await page.request.get(`/api/conversations/${conversationId}`)).json()) as {
    data: { readPositions: { firstName: string; lastReadMessageId: string | null }[] };
  };
  return answer.data.readPositions.find((position) => position.firstName === firstName)?.lastReadMessageId ?? null;
}

test("an open conversation marks read only what is on screen, and never one's own message", async ({ browser, request }) => {
  test.setTimeout(240_000);
  const paula = await newCouple(browser, request, "Paula", LAPTOP);
  const lucia = await newCouple(browser, request, "Lucia", PHONE);
  const path = await startConversation(paula, lucia, "Dinner next week?");
  const conversationId = path.split("/").at(-1)!;

  // Lucia writes more than Paula's screen holds (within the 30 a minute).
  for (let i = 1; i <= 15; i++) await write(lucia.page, conversationId, `Idea ${i}\nsecond line\nthird line\nfourth line\nfifth line`);
  // The server's page opens at the newest message before any script runs (a slow phone's first paint).
  const unscripted = await browser.newContext({
    storageState: await lucia.page.context().storageState(),
    javaScriptEnabled: false,
    viewport: PHONE,
  });
  const firstPaint = await unscripted.newPage();
  await firstPaint.goto(path);
  await expect(thread(firstPaint).getByText("Idea 15")).toBeInViewport();
  await expect(thread(firstPaint).getByText("Idea 1", { exact: true })).not.toBeInViewport();
  await paula.page.goto(path);
  const log = thread(paula.page);
  await expect(log.getByText("Idea 15")).toBeVisible();
  // Opened at the bottom: the newest is on screen, so read.
  await expect.poll(() => unread(paula.page)).toBe(0);

  // Scrolled up to the first ideas, a new message arrives below, out of sight: it stays unread.
  await log.press("Home");
  await expect(log.getByText("Idea 1", { exact: true })).toBeInViewport();
  const question = await write(lucia.page, conversationId, "Are you still there?");
  await expect(log.getByText("Are you still there?")).toBeAttached({ timeout: 15_000 });
  await expect(log.getByText("Are you still there?")).not.toBeInViewport();
  await paula.page.waitForTimeout(2_000);
  expect(await unread(paula.page)).toBe(1);

  // Back at the bottom, it is read.
  await log.press("End");
  await expect.poll(() => unread(paula.page)).toBe(0);
  expect(await readPosition(paula.page, conversationId, "Paula")).toBe(question);

  // Her own answer, at the bottom and on screen, never becomes her read position.
  await paula.page.getByRole("textbox", { name: "Message" }).fill("Still here!");
  await paula.page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(log.getByText("Still here!")).toBeInViewport();
  await paula.page.waitForTimeout(2_000);
  expect(await readPosition(paula.page, conversationId, "Paula")).toBe(question);
});

test("scrolled to the top, older messages load above and the reader stays where they were", async ({ browser, request }) => {
  test.setTimeout(240_000);
  const nora = await newCouple(browser, request, "Nora", PHONE);
  const ines = await newCouple(browser, request, "Ines", LAPTOP);
  const path = await startConversation(nora, ines, "Walking holiday?");
  const conversationId = path.split("/").at(-1)!;
  // More than a page (THREAD_PAGE_DEFAULT), from both couples (within the 30 a minute each).
  for (let i = 1; i <= 40; i++) await write(i % 2 ? ines.page : nora.page, conversationId, `Stage ${i}`);

  await nora.page.goto(path);
  const log = thread(nora.page);
  await expect(log.getByText("Stage 40", { exact: true })).toBeInViewport();
  // The newest page is in once the live feed has loaded it; the oldest stages are not.
  await expect(log.getByText("Stage 11", { exact: true })).toBeAttached();
  await expect(log.getByText("Stage 10", { exact: true })).toHaveCount(0);

  // At the top, the page before loads above, and the stage that was at the top stays in view.
  await log.press("Home");
  await expect(log.getByText("Stage 10", { exact: true })).toBeAttached();
  await expect(log.getByText("Stage 11", { exact: true })).toBeInViewport();
  await expect(log.getByText("Stage 1", { exact: true })).not.toBeInViewport();
  await log.press("Home");
  await expect(log.getByText("Stage 1", { exact: true })).toBeInViewport();
  await expect(log.getByRole("button", { name: "Load older messages" })).toHaveCount(0);
});

test("a conversation opened on a slow phone moves nothing on screen, while its HTML is parsed, as its newest page comes nor as a read position arrives", async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const rosa = await newCouple(browser, request, "Rosa", PHONE);
  const vera = await newCouple(browser, request, "Vera", LAPTOP);
  const path = await startConversation(rosa, vera, "Market on Saturday?");
  const conversationId = path.split("/").at(-1)!;
  // Vera leaves it: her read position, and so the 'Seen by' under Rosa's messages, stays put.
  await vera.page.goto("/messages");
  // More than a page (THREAD_PAGE_DEFAULT), from both couples (within the 30 a minute each).
  for (let i = 1; i <= 40; i++) await write(i % 2 ? vera.page : rosa.page, conversationId, `Stall ${i}`);

  const measure = await instrument(rosa.page);
  // Whether the browser paints mid-parse depends on timing (about one opening in two moved before): five openings.
  for (let opening = 1; opening <= 5; opening++) {
    await rosa.page.goto(path);
    const log = thread(rosa.page);
    // The server paints the newest 15 (THREAD_FIRST_PAINT); the live feed brings the newest 30.
    await expect(log.getByText("Stall 11", { exact: true })).toBeAttached({ timeout: 20_000 });
    await expect(log.getByText("Stall 40", { exact: true })).toBeInViewport();
    const { shifts } = await measure();
    expect(shifts, `opening ${opening} shifted`).toEqual([]);
  }

  // Vera opens it while Rosa reads: her read position arrives on Rosa's page, and 'Seen by' shows
  // under the newest message (Rosa's) in the room kept for it, moving nothing.
  await vera.page.goto(path);
  const newest = thread(rosa.page).getByTestId("message").filter({ hasText: "Stall 40" });
  await expect(newest.getByText(/^Seen by Vera/)).toBeVisible({ timeout: 20_000 });
  const { shifts } = await measure();
  expect(shifts, "the read position's arrival shifted").toEqual([]);
});

test("a message typed before the composer's code arrives loses nothing, keeps its focus and caret, and is sent", async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const nora = await newCouple(browser, request, "Nora", LAPTOP);
  const ella = await newCouple(browser, request, "Ella", LAPTOP);
  const path = await startConversation(nora, ella, "Ferry on Sunday?");
  // Without the service worker, whose cache would answer for the scripts out of the walk's reach.
  const context = await browser.newContext({
    viewport: LAPTOP,
    serviceWorkers: "block",
    storageState: await nora.page.context().storageState(),
  });
  const page = await context.newPage();
  await page.goto(path);
  const field = page.getByRole("textbox", { name: "Message" });
  await expect(field).toBeVisible();
  await page.waitForLoadState("networkidle");
  // From here every script the page asks for waits: the conversation is in, the composer's full
  // form (react-hook-form, the checks, the draft's code) is not, until the field is reached.
  const scripts = await holdScripts(page);
  const light = await field.elementHandle();
  await field.click();
  await field.pressSequentially("We bring the bread");
  expect(scripts.held(), "the composer's full form was asked for on reaching it, not with the page").toBeGreaterThan(0);
  expect(await light!.evaluate((element) => element.isConnected), "still the page's own field").toBe(true);

  scripts.release();
  await expect.poll(() => light!.evaluate((element) => element.isConnected)).toBe(false);
  await expect(field).toHaveValue("We bring the bread");
  await expect(field).toBeFocused();
  await page.keyboard.type(" and cheese");
  await expect(field).toHaveValue("We bring the bread and cheese");
  await scripts.stop();
  await page.keyboard.press("Control+Enter");
  await expect(thread(page).getByText("We bring the bread and cheese")).toBeVisible();
  await expect(field).toHaveValue("");
});
