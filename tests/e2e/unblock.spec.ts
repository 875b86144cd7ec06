import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./test";
import { DEMO_PASSWORD, directoryEmail } from "../../lib/demo/data";
import { LAPTOP, PHONE } from "./checks";
import { asSeeded } from "./database";
import { acceptHello, openProfile, sayHello, signIn } from "./support";

/**
 * After an unblock the two couples can talk again: a block ends their conversation, the blocker
 * lifts it in Settings › Blocked couples, the profile offers 'Say hello' again (not the ended
 * thread), and accepting reopens the pair's one conversation with its history for both. Seeded
 * directory couples no other spec uses.
 */
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

type Person = { page: Page; coupleName: string };

async function person(browser: Browser, [firstName, partner]: [string, string], viewport: typeof PHONE): Promise<Person> {
  const page = await (await browser.newContext({ viewport })).newPage();
  await signIn(page, { email: directoryEmail(firstName), password: DEMO_PASSWORD });
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  return { page, coupleName: `${firstName} & ${partner}` };
}

const thread = (who: Person) => who.page.getByRole("log", { name: "Messages" });

async function send(who: Person, text: string) {
  await who.page.getByRole("textbox", { name: "Message" }).fill(text);
  await who.page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(thread(who).getByText(text)).toBeVisible();
}

test("after an unblock either couple says hello again, and accepting reopens the old conversation with its history", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  await asSeeded(["Helena", "Teresa"]);
  const helena = await person(browser, ["Helena", "Bruno"], LAPTOP);
  const teresa = await person(browser, ["Teresa", "Afonso"], PHONE);

  // They meet and talk.
  await openProfile(helena, teresa.coupleName);
  await sayHello(helena, teresa.coupleName, "Dinner by the river?");
  const conversation = await acceptHello(teresa);
  await send(teresa, "Before the block");
  await helena.page.goto(conversation);
  await expect(thread(helena).getByText("Before the block")).toBeVisible();
  await send(helena, "Our answer");

  // Helena blocks them from their profile, then lifts it in Settings › Blocked couples.
  await openProfile(helena, teresa.coupleName);
  await helena.page.locator(`summary[aria-label="More actions for ${teresa.coupleName}"]`).click();
  await helena.page.getByRole("button", { name: `Block ${teresa.coupleName}` }).click();
  // The dialog says what a block does to the conversation and what the other couple sees.
  const dialog = helena.page.getByRole("dialog");
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await expect(dialog).toContainText("your conversation ends");
  await expect(dialog).toContainText("they see ‘This conversation has ended.’");
  await dialog.getByRole("button", { name: `Block ${teresa.coupleName}` }).click();
  // The blocker lands where the block is listed and can be undone.
  await helena.page.waitForURL(/\/settings\/blocked$/);
  await expect(helena.page.getByRole("button", { name: `Unblock ${teresa.coupleName}` })).toBeVisible();
  await teresa.page.goto(conversation);
  await expect(teresa.page.getByRole("status").filter({ hasText: "This conversation has ended." })).toBeVisible();
  await helena.page.getByRole("button", { name: `Unblock ${teresa.coupleName}` }).click();
  await expect(helena.page.getByText(`${teresa.coupleName} is no longer blocked.`)).toBeVisible();

  // Both profiles offer 'Say hello' again, not the ended thread.
  await openProfile(teresa, helena.coupleName);
  await expect(teresa.page.getByRole("button", { name: `Say hello to ${helena.coupleName}` })).toBeVisible();
  await openProfile(helena, teresa.coupleName);
  await expect(helena.page.getByRole("link", { name: `Message ${teresa.coupleName}` })).toHaveCount(0);
  await sayHello(helena, teresa.coupleName, "Sorry about that. Talk again?");

  // Teresa accepts: the same conversation opens again, history kept, and both can write.
  expect(await acceptHello(teresa)).toBe(conversation);
  await expect(thread(teresa).getByText("Before the block")).toBeVisible();
  await expect(thread(teresa).getByText("Our answer")).toBeVisible();
  await send(teresa, "Welcome back");
  await openProfile(helena, teresa.coupleName);
  await helena.page.getByRole("link", { name: `Message ${teresa.coupleName}` }).click();
  await expect(helena.page).toHaveURL(conversation);
  await expect(thread(helena).getByText("Before the block")).toBeVisible();
  await expect(thread(helena).getByText("Welcome back")).toBeVisible();
  await send(helena, "Glad to be back");
  await expect(thread(teresa).getByText("Glad to be back")).toBeVisible({ timeout: 15_000 });
});
