import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./test";
import { DEMO_PASSWORD, directoryEmail } from "../../lib/demo/data";
import { INBOX_TEXTS } from "../../lib/messages/display";
import { LAPTOP } from "./checks";
import { runDatabase } from "./database";
import { signIn } from "./support";

/**
 * The hellos waiting past their first page (20 a page, 'Load more'), with both partners of the
 * couple they went to on screens of their own: what one partner does to a hello below the first
 * page shows on the other's list (a partner's acceptance, a decline taking the card away) without
 * a reload, and a card taken away while it held the keyboard's focus hands it to the next card's
 * name (the one before when it was the last), never to the page's body. A hello declined here says
 * so, its buttons disabled, until the list's read takes it away. Olivia & Harry, a seeded couple no
 * other walk uses, receive 23 hellos from seeded couples, sent two days ago (no sender's day is
 * counted) and written straight to the run's database: sending 23 through the app would be a
 * walk of its own.
 */
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

const SENDERS = ["Beatriz", "Carla", "Leonor", "Sofia", "Marta", "Rita", "Joana", "Clara", "Alice", "Lara", "Eva", "Matilde"]
  .concat(["Amelia", "Isla", "Freya", "Hanna", "Lena", "Mila", "Emma", "Nuria", "Elena", "Vera", "Nadia"])
  .map(directoryEmail);
/** The live feed reads the list at once on an event; one poll (10 s) and its read when the stream is down. */
const LIVE = { timeout: 20_000 };

/**
 * Olivia & Harry's hellos waiting, from SENDERS' couples, newest first in SENDERS' order, 'Both of
 * us approve new connections' on: the couple names in the list's order.
 */
const seedHellos = () =>
  runDatabase(async (db) => {
    const [olivia] = await db`
      select couples.id from couples join users on users.id = couples.partner1_id where users.email = ${directoryEmail("Olivia")}`;
    const to = olivia!.id as string;
    // A retry meets what its first try left: hellos to Olivia & Harry (their answers with them) go first.
    await db`delete from connection_requests where to_couple_id = ${to}`;
    await db`update couples set both_approve_connections = true where id = ${to}`;
    const names: string[] = [];
    for (const [index, email] of SENDERS.entries()) {
      const [sender] = await db`
        select couples.id, couples.couple_name, users.id as user_id from couples
        join users on users.id = couples.partner1_id where users.email = ${email}`;
      await db`
        insert into connection_requests (from_couple_id, to_couple_id, sent_by_user_id, note, status, created_at, expires_at)
        values (${sender!.id as string}, ${to}, ${sender!.user_id as string}, ${`Hello number ${index + 1}, from ${sender!.couple_name as string}`},
          'pending', now() - interval '2 days' - ${index} * interval '1 minute', now() + interval '20 days')`;
      names.push(sender!.couple_name as string);
    }
    return names;
  });

/** A partner of Olivia & Harry on the requests, with every page loaded. */
async function partnerOnRequests(browser: Browser, firstName: string, total: number): Promise<Page> {
  const page = await (await browser.newContext({ viewport: LAPTOP })).newPage();
  await signIn(page, { email: directoryEmail(firstName), password: DEMO_PASSWORD });
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  await page.goto("/messages?tab=requests");
  await expect(page.getByRole("tab", { name: `Requests (${total})` })).toBeVisible();
  const requests = page.getByRole("list", { name: "Requests" });
  await expect(requests.getByRole("article")).toHaveCount(20);
  // A press before the page hydrates is lost: pressed again until the next page shows.
  await expect(async () => {
    await page.getByRole("button", { name: "Load more" }).click({ timeout: 5_000 });
    await expect(requests.getByRole("article")).toHaveCount(total, { timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
  return page;
}

const card = (page: Page, coupleName: string) => page.getByRole("list", { name: "Requests" }).getByRole("article", { name: coupleName });

/** Whether the page's focus fell to its body (or nowhere). */
const focusOnBody = (page: Page) => page.evaluate(() => document.activeElement === null || document.activeElement === document.body);

test("a partner's answer to a hello below the first page shows on the other's list, and the keyboard keeps its place", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const names = await seedHellos();
  expect(names).toHaveLength(23);
  const olivia = await partnerOnRequests(browser, "Olivia", 23);
  const harry = await partnerOnRequests(browser, "Harry", 23);
  const [, , , , , , , , , , , , , , , , , , nineteenth, twentieth, twentyFirst, twentySecond, last] = names as [string, ...string[]];

  // Harry accepts the 21st hello: it waits for Olivia now, and her list says so at its place,
  // though her first page and the count are as they were.
  await card(harry, twentyFirst!).getByRole("button", { name: "Accept" }).click();
  await expect(card(harry, twentyFirst!).getByText("You accepted. Waiting for Olivia to accept too.")).toBeVisible();
  // Its buttons are gone: the focus is on the words saying so, not fallen to the page.
  await expect(card(harry, twentyFirst!).getByRole("status")).toBeFocused();
  await expect(card(olivia, twentyFirst!).getByText("Accepted by Harry, waiting for Olivia")).toBeVisible(LIVE);
  await expect(olivia.getByRole("tab", { name: "Requests (23)" })).toBeVisible();

  // Olivia's keyboard is on the 22nd hello's name when Harry declines it: the card leaves her list
  // and her focus lands on the next hello's name.
  await card(olivia, twentySecond!).getByRole("link", { name: twentySecond! }).focus();
  await card(harry, twentySecond!).getByRole("button", { name: "Decline" }).click();
  await expect(olivia.getByRole("tab", { name: "Requests (22)" })).toBeVisible(LIVE);
  await expect(card(olivia, twentySecond!)).toHaveCount(0);
  await expect(card(olivia, last!).getByRole("link", { name: last! })).toBeFocused();

  // On the last hello's Decline when Harry declines it: the one before it takes the focus.
  await card(olivia, last!).getByRole("button", { name: "Decline" }).focus();
  await card(harry, last!).getByRole("button", { name: "Decline" }).click();
  await expect(card(olivia, last!)).toHaveCount(0, LIVE);
  await expect(card(olivia, twentyFirst!).getByRole("link", { name: twentyFirst! })).toBeFocused();
  expect(await focusOnBody(olivia)).toBe(false);

  // Olivia declines the 20th herself while her list's next read is held: the card says so with
  // its buttons disabled until the read takes it away, then the next hello's name has the focus.
  let letReadsGo = () => {};
  const held = new Promise<void>((resolve) => (letReadsGo = resolve));
  await olivia.route(/\/api\/connections\?box=incoming/, async (route) => {
    await held;
    // A read the list no longer waits for was aborted meanwhile: nothing to continue.
    await route.continue().catch(() => {});
  });
  await card(olivia, twentieth!).getByRole("button", { name: "Decline" }).press("Enter");
  await expect(card(olivia, twentieth!).getByRole("status")).toHaveText(INBOX_TEXTS.declined);
  await expect(card(olivia, twentieth!).getByRole("button", { name: "Accept" })).toBeDisabled();
  await expect(card(olivia, twentieth!).getByRole("button", { name: "Decline" })).toBeDisabled();
  // Still so a moment later: nothing enables them before the card leaves.
  await olivia.waitForTimeout(1_500);
  await expect(card(olivia, twentieth!).getByRole("button", { name: "Decline" })).toBeDisabled();
  letReadsGo();
  await olivia.unroute(/\/api\/connections\?box=incoming/);
  await expect(card(olivia, twentieth!)).toHaveCount(0, LIVE);
  await expect(card(olivia, twentyFirst!).getByRole("link", { name: twentyFirst! })).toBeFocused();

  // A click on the page's background lets go of the card that had the focus: when it then leaves,
  // nothing takes the focus to the next one.
  await card(olivia, nineteenth!).getByRole("link", { name: nineteenth! }).focus();
  await olivia.getByRole("heading", { level: 1, name: "Messages" }).click();
  expect(await focusOnBody(olivia)).toBe(true);
  await card(harry, nineteenth!).getByRole("button", { name: "Decline" }).click();
  await expect(card(olivia, nineteenth!)).toHaveCount(0, LIVE);
  await olivia.waitForTimeout(500);
  expect(await focusOnBody(olivia)).toBe(true);
});
