import { expect, test, type Page } from "@playwright/test";
import { LAPTOP, PHONE } from "./checks";
import { newCouple, openProfile, sayHello } from "./support";

/**
 * A conversation that feels like a chat app, for both couples at once: a reply quotes the message
 * it answers (a tap goes to it), a reaction and an edit ('edited') show live on the other side.
 * Couples of its own (newCouple).
 */
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

const thread = (who: { page: Page }) => who.page.getByRole("log", { name: "Messages" });
const message = (who: { page: Page }, text: string) => thread(who).getByTestId("message").filter({ hasText: text });

async function send(who: { page: Page }, text: string) {
  await who.page.getByRole("textbox", { name: "Message" }).fill(text);
  await who.page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(message(who, text)).toBeVisible();
}

/** From the menu of the first message with this text (a reply below quotes it too). */
async function menu(who: { page: Page }, text: string, action: string) {
  const item = message(who, text).first();
  await item.locator("summary").click();
  await item.getByRole("button", { name: action, exact: true }).click();
}

test("reply, react and edit in a conversation, live for the other couple", async ({ browser, request }) => {
  test.setTimeout(240_000);
  const paula = await newCouple(browser, request, "Paula", PHONE);
  const lucia = await newCouple(browser, request, "Lucia", LAPTOP);

  await openProfile(paula, lucia.coupleName);
  await sayHello(paula, lucia.coupleName, "Tapas on Saturday?");
  await lucia.page.goto("/messages");
  await lucia.page.getByRole("tab", { name: "Requests (1)" }).click();
  await lucia.page.getByRole("button", { name: "Accept" }).click();
  await expect(lucia.page).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
  await paula.page.goto(lucia.page.url());

  await send(paula, "Saturday at 8 near the market?");
  await expect(message(lucia, "Saturday at 8 near the market?")).toBeVisible({ timeout: 15_000 });

  // Lucia replies to it: the quote shows above her answer, for both.
  await menu(lucia, "Saturday at 8 near the market?", "Reply");
  await expect(lucia.page.getByText("Replying to Paula")).toBeVisible();
  await expect(lucia.page.getByRole("textbox", { name: "Message" })).toBeFocused();
  await send(lucia, "Perfect, we will book");
  const answer = message(paula, "Perfect, we will book");
  await expect(answer.getByRole("button", { name: /Replying to Paula/ })).toBeVisible({ timeout: 15_000 });
  await expect(answer.getByRole("button", { name: /Replying to Paula/ })).toContainText("Saturday at 8 near the market?");
  // A tap on the quote goes to the message it answers.
  await answer.getByRole("button", { name: /Replying to Paula/ }).click();
  await expect(message(paula, "Saturday at 8 near the market?").first()).toBeFocused();

  // Paula reacts with a heart; Lucia sees it live.
  await menu(paula, "Perfect, we will book", "React");
  await message(paula, "Perfect, we will book").getByRole("button", { name: "React with heart" }).click();
  await expect(message(paula, "Perfect, we will book").getByRole("button", { name: "React with heart" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  const heart = message(lucia, "Perfect, we will book").getByRole("group", { name: "Reactions" });
  await expect(heart.getByRole("button", { name: /heart: who reacted/ })).toContainText("1", { timeout: 15_000 });

  // Paula edits her message within 15 minutes: Lucia sees the new words, marked edited.
  await menu(paula, "Saturday at 8 near the market?", "Edit");
  const editor = paula.page.getByRole("form", { name: "Edit message" });
  await editor.getByRole("textbox", { name: "Edit your message" }).fill("Saturday at 9 near the market?");
  await editor.getByRole("button", { name: "Save" }).click();
  const edited = message(lucia, "Saturday at 9 near the market?").first();
  await expect(edited).toBeVisible({ timeout: 15_000 });
  await expect(edited).toContainText("edited");
  // Lucia's partner's own message is not hers to edit: only Reply and React, Report for the other couple's.
  await message(lucia, "Saturday at 9 near the market?").first().locator("summary").click();
  await expect(message(lucia, "Saturday at 9 near the market?").first().getByRole("button", { name: "Edit" })).toHaveCount(0);
});
