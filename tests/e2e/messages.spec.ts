import type { Browser, Page, TestInfo } from "@playwright/test";
import { expect, test } from "./test";
import { DEMO_PASSWORD, directoryEmail } from "../../lib/demo/data";
import { axe, LAPTOP, noHorizontalScroll, PHONE } from "./checks";
import { asSeeded } from "./database";
import { openProfile, sayHello, signIn } from "./support";

/**
 * Messaging between couples, four people at once: consent first (a note, then the other couple
 * accepts), one conversation for all four, each seeing the others' messages, read receipts,
 * deletions and the navigation's unread badge within one poll without reloading; a block ends
 * it for both. With 'Both of us approve new connections' it opens only once both partners
 * accepted. Each person's screen is a phone (390x844) or a laptop (1280x800) in the light or
 * dark theme, and passes axe-core there. Seeded directory couples (lib/demo), no one else's.
 */
test.describe.configure({ mode: "serial" });

/** One thread poll and the time to show it; the badge follows the bell's 10 s poll. */
const ONE_POLL = { timeout: 9_000 };
const BADGE_POLL = { timeout: 15_000 };

type Person = { page: Page; firstName: string; coupleName: string; label: string };

async function person(
  browser: Browser,
  [firstName, partner]: [string, string],
  me: 0 | 1,
  viewport: typeof PHONE,
  theme: "light" | "dark",
): Promise<Person> {
  const context = await browser.newContext({ viewport, colorScheme: theme });
  await context.addInitScript((chosen) => window.localStorage.setItem("theme", chosen), theme);
  const page = await context.newPage();
  const name = me === 0 ? firstName : partner;
  await signIn(page, { email: directoryEmail(name), password: DEMO_PASSWORD });
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  return { page, firstName: name, coupleName: `${firstName} & ${partner}`, label: `${name}-${viewport.width}-${theme}` };
}

/** No sideways scroll, axe clean, and a screenshot to look at. */
async function check(who: Person, name: string, testInfo: TestInfo) {
  await noHorizontalScroll(who.page);
  await axe(who.page);
  await who.page.screenshot({ path: testInfo.outputPath(`${name}-${who.label}.png`) });
}

const thread = (who: Person) => who.page.getByRole("log", { name: "Messages" });

async function send(who: Person, text: string) {
  await who.page.getByRole("textbox", { name: "Message" }).fill(text);
  await who.page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(thread(who).getByText(text)).toBeVisible();
}

/** The "More" menu of the message with this text. */
const menu = (who: Person, text: string) => thread(who).getByTestId("message").filter({ hasText: text }).locator("summary");

/** The unread badge on the Messages link this screen shows (the wide bar or the phone's tab bar). */
const badge = (who: Person) => who.page.locator('[data-testid="messages-badge"]:visible');

test("two couples: hello, accept, four people talking, receipts, the badge, a deletion and a block", async ({ browser }, testInfo) => {
  // Four people, thirteen axe passes: about a minute alone, past 300 s on a slow day beside another walk.
  test.setTimeout(480_000);
  await asSeeded(["Ines", "Beatriz"]);
  const ines = await person(browser, ["Ines", "Rafael"], 0, PHONE, "light");
  const rafael = await person(browser, ["Ines", "Rafael"], 1, LAPTOP, "dark");
  const beatriz = await person(browser, ["Beatriz", "Tomas"], 0, LAPTOP, "light");
  const tomas = await person(browser, ["Beatriz", "Tomas"], 1, PHONE, "dark");
  const everyone = [ines, rafael, beatriz, tomas];

  // Nobody has a conversation yet: the empty inbox leads to the directory.
  for (const who of everyone) {
    await who.page.goto("/messages");
    await expect(who.page.getByRole("link", { name: "Say hello to a couple from the directory" })).toBeVisible();
    await check(who, "inbox-empty", testInfo);
  }

  // Ines says hello from Beatriz & Tomas's profile; her partner sees it as sent too.
  await openProfile(ines, beatriz.coupleName);
  await check(ines, "profile", testInfo);
  await sayHello(ines, beatriz.coupleName, "We loved your walk in Sintra! Coffee some time?");
  await openProfile(rafael, beatriz.coupleName);
  await expect(rafael.page.getByText("Request sent", { exact: true })).toBeVisible();

  // Both of Beatriz & Tomas see the request; Beatriz accepts and lands in the conversation.
  for (const who of [beatriz, tomas]) {
    await who.page.goto("/messages");
    await who.page.getByRole("tab", { name: "Requests (1)" }).click();
    const request = who.page.getByRole("article", { name: ines.coupleName });
    await expect(request.getByText("We loved your walk in Sintra! Coffee some time?")).toBeVisible();
    await check(who, "requests", testInfo);
  }
  await beatriz.page.getByRole("button", { name: "Accept" }).click();
  await expect(beatriz.page).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
  const conversation = beatriz.page.url();
  await expect(beatriz.page.getByRole("heading", { level: 1, name: ines.coupleName })).toBeVisible();

  // All four open it from their inbox (Tomas's request list empties within a poll).
  await expect(tomas.page.getByRole("tab", { name: "Requests (0)" })).toBeVisible({ timeout: 15_000 });
  // The hello is answered: its entry on Tomas's bell no longer waits for him.
  await expect(tomas.page.getByRole("button", { name: /^Notifications(, .+ unread)?$/ })).toHaveAccessibleName("Notifications", {
    timeout: 15_000,
  });
  for (const who of [ines, rafael, tomas]) {
    await who.page.goto("/messages");
    await who.page.getByRole("link", { name: who === tomas ? ines.coupleName : beatriz.coupleName }).click();
    await expect(who.page).toHaveURL(conversation);
  }

  // Everyone writes; the other three see it within one poll, author as person of couple.
  for (const who of everyone) {
    const text = `Hello from ${who.firstName}!`;
    await send(who, text);
    for (const other of everyone.filter((o) => o !== who)) {
      await expect(thread(other).getByText(text)).toBeVisible(ONE_POLL);
    }
  }
  await expect(thread(beatriz).getByText(`Ines of ${ines.coupleName}`).first()).toBeVisible();
  // Markup stays text; so does a link from a couple a day old (the demo's Ines & Rafael), which
  // shows its links as text in a conversation's first messages (plain-links.spec.ts has the
  // trusted couple's clickable link).
  await send(rafael, "Our route: https://example.com/sintra-walk <b>bold</b>");
  await expect(thread(tomas).getByText("<b>bold</b>", { exact: false })).toBeVisible(ONE_POLL);
  await expect(thread(tomas).getByText("https://example.com/sintra-walk", { exact: false })).toBeVisible();
  await expect(thread(tomas).getByRole("link", { name: /sintra-walk/ })).toHaveCount(0);

  // 'Seen by': the three others read Rafael's message, and Rafael sees their names under it.
  const seen = thread(rafael)
    .getByTestId("message")
    .filter({ hasText: "Our route" })
    .getByText(/^Seen by /);
  await expect(seen).toHaveText(/^Seen by (?=.*Ines)(?=.*Beatriz)(?=.*Tomas)/, ONE_POLL);
  for (const who of everyone) await check(who, "thread", testInfo);

  // Tomas steps away: Ines's next message raises his badge; opening the conversation clears it.
  await tomas.page.goto("/directory");
  await send(ines, "Are you free on Saturday?");
  await expect(badge(tomas)).toHaveText("1", BADGE_POLL);
  await tomas.page.goto("/messages");
  await expect(tomas.page.getByRole("link", { name: new RegExp(`${ines.coupleName}.*Ines: Are you free on Saturday\\?`) })).toBeVisible();
  await tomas.page.getByRole("link", { name: new RegExp(ines.coupleName) }).click();
  await expect(thread(tomas).getByText("Are you free on Saturday?")).toBeVisible();
  await expect(badge(tomas)).toHaveCount(0, BADGE_POLL);

  // Ines deletes her message: all four see 'This message was deleted' in its place.
  // Thinking better of it first: 'Cancel' gives focus back to the message's menu button, where it was opened.
  await menu(ines, "Are you free on Saturday?").click();
  await ines.page.getByRole("button", { name: "Delete" }).click();
  await ines.page.getByRole("dialog", { name: "Delete this message?" }).getByRole("button", { name: "Cancel" }).click();
  await expect(menu(ines, "Are you free on Saturday?")).toBeFocused();
  await menu(ines, "Are you free on Saturday?").click();
  await ines.page.getByRole("button", { name: "Delete" }).click();
  await ines.page.getByRole("dialog", { name: "Delete this message?" }).getByRole("button", { name: "Delete" }).click();
  // Deleted, it has no menu any more: focus is on the message itself.
  await expect(thread(ines).getByTestId("message").filter({ hasText: "This message was deleted" })).toBeFocused();
  for (const who of everyone) {
    await expect(thread(who).getByText("This message was deleted")).toBeVisible(ONE_POLL);
    await expect(thread(who).getByText("Are you free on Saturday?")).toHaveCount(0);
  }

  // Ines blocks Beatriz & Tomas: the conversation ends for both couples, readable, with no composer.
  await menu(ines, "Hello from Beatriz!").click();
  await ines.page.getByRole("button", { name: `Block ${beatriz.coupleName}` }).click();
  await ines.page
    .getByRole("dialog")
    .getByRole("button", { name: `Block ${beatriz.coupleName}` })
    .click();
  for (const who of everyone) {
    // In place of the composer (a laptop's inbox row says it too).
    await expect(who.page.getByRole("status").filter({ hasText: "This conversation has ended." })).toBeVisible(ONE_POLL);
    await expect(who.page.getByRole("textbox", { name: "Message" })).toHaveCount(0);
    await expect(thread(who).getByText("Hello from Beatriz!")).toBeVisible();
  }
  await check(beatriz, "ended", testInfo);
  await check(tomas, "ended", testInfo);
});

test("with 'Both of us approve new connections', a request opens only once both partners accepted", async ({ browser }, testInfo) => {
  test.setTimeout(180_000);
  await asSeeded(["Carla", "Leonor"]);
  const carla = await person(browser, ["Carla", "Duarte"], 0, PHONE, "dark");
  const duarte = await person(browser, ["Carla", "Duarte"], 1, LAPTOP, "light");
  const leonor = await person(browser, ["Leonor", "Miguel"], 0, LAPTOP, "dark");

  // Off by default; turned on, it is saved at once.
  await carla.page.goto("/settings/messages");
  const both = carla.page.getByRole("switch", { name: "Both of us approve new connections" });
  await expect(both).not.toBeChecked();
  await both.check();
  await expect(carla.page.getByText("A new conversation now opens once both of you accept.")).toBeVisible();
  await check(carla, "settings-messages", testInfo);
  await carla.page.reload();
  await expect(carla.page.getByRole("switch", { name: "Both of us approve new connections" })).toBeChecked();

  // Leonor says hello; Carla accepts first and is told she waits for Duarte.
  await openProfile(leonor, carla.coupleName);
  await sayHello(leonor, carla.coupleName, "Hello from Porto!");
  await carla.page.goto("/messages");
  await carla.page.getByRole("tab", { name: "Requests (1)" }).click();
  await carla.page.getByRole("button", { name: "Accept" }).click();
  await expect(carla.page.getByText("You accepted. Waiting for Duarte to accept too.")).toBeVisible();
  await check(carla, "waiting", testInfo);
  // Still only a request for Leonor.
  await leonor.page.reload();
  await expect(leonor.page.getByText("Request sent", { exact: true })).toBeVisible();

  // Duarte sees who has accepted, accepts, and the conversation opens.
  await duarte.page.goto("/messages");
  await duarte.page.getByRole("tab", { name: "Requests (1)" }).click();
  await expect(duarte.page.getByText("Accepted by Carla, waiting for Duarte")).toBeVisible();
  await check(duarte, "both-approve", testInfo);
  await duarte.page.getByRole("button", { name: "Accept" }).click();
  await expect(duarte.page).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
  await leonor.page.reload();
  await expect(leonor.page.getByRole("link", { name: `Message ${carla.coupleName}` })).toBeVisible();
  await leonor.page.getByRole("link", { name: `Message ${carla.coupleName}` }).click();
  await expect(leonor.page).toHaveURL(duarte.page.url());
  await send(leonor, "So glad you both said yes!");
  await expect(thread(duarte).getByText("So glad you both said yes!")).toBeVisible(ONE_POLL);
});
