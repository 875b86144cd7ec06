import { expect, test, type Browser, type Page } from "@playwright/test";
import { DEMO_PASSWORD, directoryEmail } from "../../lib/demo/data";
import { signIn } from "./support";

/**
 * Messaging kept live by the tab's one event stream: four people of two couples with the thread
 * open, the unread counts' polls blocked, and no thread load while nothing happens (the thread's
 * own poll is off while the stream is up). A message arrives on the other three, 'Seen by' follows
 * each read, the message badge rises and clears. Seeded directory couples no other spec uses.
 */
test.describe.configure({ mode: "serial" });

type Person = { page: Page; name: string; coupleName: string; threadLoads: number };

async function person(browser: Browser, [first, partner]: [string, string], me: 0 | 1): Promise<Person> {
  const context = await browser.newContext();
  // Counts reach the page only through the stream.
  for (const poll of ["**/api/notifications/unread-count", "**/api/messages/unread-count"])
    await context.route(poll, (route) => route.abort());
  const page = await context.newPage();
  const name = me === 0 ? first : partner;
  const who: Person = { page, name, coupleName: `${first} & ${partner}`, threadLoads: 0 };
  page.on("request", (request) => {
    if (/\/api\/conversations\/[0-9a-f-]+\/messages/.test(new URL(request.url()).pathname) && request.method() === "GET") who.threadLoads++;
  });
  await signIn(page, { email: directoryEmail(name), password: DEMO_PASSWORD });
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  return who;
}

const thread = (who: Person) => who.page.getByRole("log", { name: "Messages" });
const badge = (who: Person) => who.page.locator('[data-testid="messages-badge"]:visible');
/** Within a second or two: no poll could have brought it (the thread's poll is off, the counts' blocked). */
const LIVE = { timeout: 5_000 };

async function send(who: Person, text: string) {
  await who.page.getByRole("textbox", { name: "Message" }).fill(text);
  await who.page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(thread(who).getByText(text)).toBeVisible();
}

test("four people with the thread open: a message, 'Seen by' and the badge, live through the stream", async ({ browser }) => {
  test.setTimeout(240_000);
  const joana = await person(browser, ["Joana", "Andre"], 0);
  const andre = await person(browser, ["Joana", "Andre"], 1);
  const clara = await person(browser, ["Clara", "Vasco"], 0);
  const vasco = await person(browser, ["Clara", "Vasco"], 1);
  const everyone = [joana, andre, clara, vasco];

  // Joana says hello; Clara accepts from her requests.
  await joana.page.goto(`/directory?q=Clara`);
  await joana.page.getByRole("list", { name: "Couples" }).getByRole("link").filter({ hasText: clara.coupleName }).first().click();
  await joana.page.getByRole("button", { name: `Say hello to ${clara.coupleName}` }).click();
  const dialog = joana.page.getByRole("dialog", { name: `Say hello to ${clara.coupleName}` });
  await dialog.getByLabel("Note").fill("Fancy a swim at Cascais?");
  await dialog.getByRole("button", { name: "Send request" }).click();
  await expect(joana.page.getByText("Request sent", { exact: true }).first()).toBeVisible();
  await clara.page.goto("/messages?tab=requests");
  await clara.page.getByRole("button", { name: "Accept" }).click();
  await expect(clara.page).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
  const conversation = clara.page.url();
  for (const who of [joana, andre, vasco]) await who.page.goto(conversation);
  for (const who of everyone) await expect(who.page.getByRole("textbox", { name: "Message" })).toBeVisible();

  // Quiet: nobody's thread loads again (no poll while the stream is up).
  await everyone[0]!.page.waitForTimeout(1_500);
  const before = everyone.map((who) => who.threadLoads);
  await everyone[0]!.page.waitForTimeout(10_000);
  expect(everyone.map((who) => who.threadLoads)).toEqual(before);

  // Joana writes: the three others see it at once; as each has read it, 'Seen by' follows on Joana's screen.
  await send(joana, "Saturday at ten?");
  for (const other of [andre, clara, vasco]) await expect(thread(other).getByText("Saturday at ten?")).toBeVisible(LIVE);
  await expect(thread(joana).getByText(/^Seen by /)).toBeVisible(LIVE);
  await expect(thread(joana).getByText(/^Seen by (\w+, )?\w+ and \w+$/)).toBeVisible(LIVE);

  // Vasco steps away: Andre's next message raises his badge, reading it clears it.
  await vasco.page.goto("/directory");
  await send(andre, "We will bring the umbrella.");
  await expect(badge(vasco)).toHaveText("1", LIVE);
  await vasco.page.goto(conversation);
  await expect(thread(vasco).getByText("We will bring the umbrella.")).toBeVisible();
  await expect(badge(vasco)).toHaveCount(0, LIVE);
});
