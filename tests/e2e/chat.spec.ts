import { expect, test, type Browser, type Page } from "@playwright/test";
import { DEMO_PASSWORD, directoryEmail } from "../../lib/demo/data";
import { LAPTOP, PHONE } from "./checks";
import { openProfile, sayHello, signIn } from "./support";

/**
 * A conversation that feels like a chat app, for both couples at once: a reply quotes the message
 * it answers (a tap goes to it), a reaction and an edit ('edited') show live on the other side.
 * Seeded directory couples no other spec uses.
 */
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

type Person = { page: Page; coupleName: string; firstName: string };

async function person(browser: Browser, [firstName, partner]: [string, string], viewport: typeof PHONE): Promise<Person> {
  const page = await (await browser.newContext({ viewport })).newPage();
  await signIn(page, { email: directoryEmail(firstName), password: DEMO_PASSWORD });
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  return { page, coupleName: `${firstName} & ${partner}`, firstName };
}

const thread = (who: Person) => who.page.getByRole("log", { name: "Messages" });
const message = (who: Person, text: string) => thread(who).getByTestId("message").filter({ hasText: text });

async function send(who: Person, text: string) {
  await who.page.getByRole("textbox", { name: "Message" }).fill(text);
  await who.page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(message(who, text)).toBeVisible();
}

/** From the menu of the first message with this text (a reply below quotes it too). */
async function menu(who: Person, text: string, action: string) {
  const item = message(who, text).first();
  await item.locator("summary").click();
  await item.getByRole("button", { name: action, exact: true }).click();
}

test("reply, react and edit in a conversation, live for the other couple", async ({ browser }) => {
  test.setTimeout(240_000);
  const amelia = await person(browser, ["Amelia", "Jack"], PHONE);
  const lucia = await person(browser, ["Lucia", "Pablo"], LAPTOP);

  await openProfile(amelia, lucia.coupleName);
  await sayHello(amelia, lucia.coupleName, "Tapas on Saturday?");
  await lucia.page.goto("/messages");
  await lucia.page.getByRole("tab", { name: "Requests (1)" }).click();
  await lucia.page.getByRole("button", { name: "Accept" }).click();
  await expect(lucia.page).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
  await amelia.page.goto(lucia.page.url());

  await send(amelia, "Saturday at 8 near the market?");
  await expect(message(lucia, "Saturday at 8 near the market?")).toBeVisible({ timeout: 15_000 });

  // Lucia replies to it: the quote shows above her answer, for both.
  await menu(lucia, "Saturday at 8 near the market?", "Reply");
  await expect(lucia.page.getByText("Replying to Amelia")).toBeVisible();
  await expect(lucia.page.getByRole("textbox", { name: "Message" })).toBeFocused();
  await send(lucia, "Perfect, we will book");
  const answer = message(amelia, "Perfect, we will book");
  await expect(answer.getByRole("button", { name: /Replying to Amelia/ })).toBeVisible({ timeout: 15_000 });
  await expect(answer.getByRole("button", { name: /Replying to Amelia/ })).toContainText("Saturday at 8 near the market?");
  // A tap on the quote goes to the message it answers.
  await answer.getByRole("button", { name: /Replying to Amelia/ }).click();
  await expect(message(amelia, "Saturday at 8 near the market?").first()).toBeFocused();

  // Amelia reacts with a heart; Lucia sees it live.
  await menu(amelia, "Perfect, we will book", "React");
  await message(amelia, "Perfect, we will book").getByRole("button", { name: "React with heart" }).click();
  await expect(message(amelia, "Perfect, we will book").getByRole("button", { name: "React with heart" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  const heart = message(lucia, "Perfect, we will book").getByRole("group", { name: "Reactions" });
  await expect(heart.getByRole("button", { name: /heart: who reacted/ })).toContainText("1", { timeout: 15_000 });

  // Amelia edits her message within 15 minutes: Lucia sees the new words, marked edited.
  await menu(amelia, "Saturday at 8 near the market?", "Edit");
  const editor = amelia.page.getByRole("form", { name: "Edit message" });
  await editor.getByRole("textbox", { name: "Edit your message" }).fill("Saturday at 9 near the market?");
  await editor.getByRole("button", { name: "Save" }).click();
  const edited = message(lucia, "Saturday at 9 near the market?").first();
  await expect(edited).toBeVisible({ timeout: 15_000 });
  await expect(edited).toContainText("edited");
  // Lucia's partner's own message is not hers to edit: only Reply and React, Report for the other couple's.
  await message(lucia, "Saturday at 9 near the market?").first().locator("summary").click();
  await expect(message(lucia, "Saturday at 9 near the market?").first().getByRole("button", { name: "Edit" })).toHaveCount(0);
});
