import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { LAPTOP, NARROW, noHorizontalScroll, PHONE } from "./checks";
import { MESSAGE_TEXTS } from "../../lib/messages/rules";
import { newCouple, startConversation } from "./support";

/**
 * A conversation that feels like a chat app, for both couples at once: a reply quotes the message
 * it answers (a tap goes to it), a reaction and an edit ('edited') show live on the other side.
 * Couples of its own (newCouple).
 */
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

const thread = (who: { page: Page }) => who.page.getByRole("log", { name: "Messages" });
const message = (who: { page: Page }, text: string) => thread(who).getByTestId("message").filter({ hasText: text });
/** What a screen reader hears as the thread changes: the log itself is silent, arrivals are read out. */
const heard = (who: { page: Page }) => who.page.getByRole("status").and(who.page.getByTestId("arrivals"));

async function send(who: { page: Page }, text: string) {
  await who.page.getByRole("textbox", { name: "Message" }).fill(text);
  await who.page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(message(who, text)).toBeVisible();
}

/**
 * From the menu of the first message with this text (a reply below quotes it too). The menu opens
 * whole inside the thread, which clips what sticks out of it: one's own long message's menu opens
 * rightward, the newest message's upward.
 */
async function menu(who: { page: Page }, text: string, action: string) {
  const item = message(who, text).first();
  await item.locator("summary").click();
  const inside = await item.locator("details > summary + div").evaluate((items) => {
    const menu = items.getBoundingClientRect();
    const list = items.closest('[role="log"]')!.getBoundingClientRect();
    const within = menu.left >= list.left && menu.right <= list.right && menu.top >= list.top && menu.bottom <= list.bottom;
    return { within, menu: [menu.left, menu.top, menu.right, menu.bottom], list: [list.left, list.top, list.right, list.bottom] };
  });
  expect(inside.within, JSON.stringify(inside)).toBe(true);
  await item.getByRole("button", { name: action, exact: true }).click();
}

test("reply, react and edit in a conversation, live for the other couple; a reply to a deleted message is dropped", async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const paula = await newCouple(browser, request, "Paula", PHONE);
  const lucia = await newCouple(browser, request, "Lucia", LAPTOP);

  await paula.page.goto(await startConversation(paula, lucia, "Tapas on Saturday?"));

  await send(paula, "Saturday at 8 near the market?");
  await expect(message(lucia, "Saturday at 8 near the market?")).toBeVisible({ timeout: 15_000 });
  // Lucia hears the arrival; Paula does not hear her own words read back, and the log stays silent.
  await expect(heard(lucia)).toHaveText("Paula: Saturday at 8 near the market?");
  await expect(heard(paula)).toHaveText("");
  await expect(thread(lucia)).toHaveAttribute("aria-live", "off");

  // Lucia replies to it: the quote shows above her answer, for both.
  await menu(lucia, "Saturday at 8 near the market?", "Reply");
  await expect(lucia.page.getByText("Replying to Paula")).toBeVisible();
  await expect(lucia.page.getByRole("textbox", { name: "Message" })).toBeFocused();
  await send(lucia, "Perfect, we will book");
  // Sent with the button, the field has the keyboard again for the next one.
  await expect(lucia.page.getByRole("textbox", { name: "Message" })).toBeFocused();
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
  // A reaction is not an arrival: Paula last heard Lucia's answer; Lucia's own answer came after Paula's message, so nothing.
  await expect(heard(paula)).toHaveText("Lucia: Perfect, we will book");
  await expect(heard(lucia)).toHaveText("");

  // Paula edits her message within 15 minutes: Lucia sees the new words, marked edited.
  await menu(paula, "Saturday at 8 near the market?", "Edit");
  const editor = paula.page.getByRole("form", { name: "Edit message" });
  await editor.getByRole("textbox", { name: "Edit your message" }).fill("Saturday at 9 near the market?");
  await editor.getByRole("button", { name: "Save" }).click();
  const edited = message(lucia, "Saturday at 9 near the market?").first();
  await expect(edited).toBeVisible({ timeout: 15_000 });
  await expect(edited).toContainText("edited");
  // Lucia's answer quotes the new words too.
  await expect(message(lucia, "Perfect, we will book").getByRole("button", { name: /Replying to Paula/ })).toContainText(
    "Saturday at 9 near the market?",
  );
  // Lucia's partner's own message is not hers to edit: only Reply and React, Report for the other couple's.
  await message(lucia, "Saturday at 9 near the market?").first().locator("summary").click();
  await expect(message(lucia, "Saturday at 9 near the market?").first().getByRole("button", { name: "Edit" })).toHaveCount(0);
  await lucia.page.keyboard.press("Escape");

  // Lucia answers a message Paula then deletes: the reply goes with it, the words stay, and they leave without a quote.
  const field = lucia.page.getByRole("textbox", { name: "Message" });
  const cancelReply = lucia.page.getByRole("button", { name: "Cancel reply" });
  const [posted] = await Promise.all([
    paula.page.waitForResponse(
      (response) => response.request().method() === "POST" && /\/api\/conversations\/[^/]+\/messages$/.test(response.url()),
    ),
    send(paula, "Or Sunday at noon?"),
  ]);
  const goneId = ((await posted.json()) as { data: { id: string } }).data.id;
  await expect(message(lucia, "Or Sunday at noon?")).toBeVisible({ timeout: 15_000 });
  await menu(lucia, "Or Sunday at noon?", "Reply");
  await expect(cancelReply).toBeVisible();
  await field.fill("Sunday suits us");
  await menu(paula, "Or Sunday at noon?", "Delete");
  await paula.page.getByRole("dialog", { name: "Delete this message?" }).getByRole("button", { name: "Delete" }).click();
  await expect(thread(lucia).getByText(MESSAGE_TEXTS.deleted)).toBeVisible({ timeout: 15_000 });
  await expect(cancelReply).toBeHidden();
  await expect(lucia.page.locator("form").filter({ has: field })).not.toContainText("Or Sunday at noon?");
  await send(lucia, "Sunday suits us");
  await expect(message(paula, "Sunday suits us")).toBeVisible({ timeout: 15_000 });
  await expect(message(paula, "Sunday suits us").getByRole("button", { name: /Replying to/ })).toHaveCount(0);

  // One whose deletion the server knows before Lucia's thread does: refused, said in plain words,
  // the words kept and the reply dropped, so the next 'Send' sends them.
  await menu(lucia, "Perfect, we will book", "Reply");
  await expect(cancelReply).toBeVisible();
  await lucia.page.route("**/api/conversations/*/messages", async (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    await route.fallback({ postData: JSON.stringify({ ...route.request().postDataJSON(), replyToId: goneId }) });
  });
  await field.fill("Count us in");
  await lucia.page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(lucia.page.getByRole("alert").filter({ hasText: MESSAGE_TEXTS.replyGone })).toBeVisible();
  await expect(lucia.page.getByText("replyToId")).toHaveCount(0);
  await expect(field).toHaveValue("Count us in");
  await expect(cancelReply).toBeHidden();
  await lucia.page.unroute("**/api/conversations/*/messages");
  await send(lucia, "Count us in");
  await expect(message(paula, "Count us in")).toBeVisible({ timeout: 15_000 });
  await expect(message(paula, "Count us in").getByRole("button", { name: /Replying to/ })).toHaveCount(0);
});

test("on a phone a thread is the whole screen, and the next message is written while one is on its way", async ({ browser, request }) => {
  test.setTimeout(240_000);
  const paula = await newCouple(browser, request, "Paula", PHONE);
  const lucia = await newCouple(browser, request, "Lucia", LAPTOP);
  await paula.page.goto(await startConversation(paula, lucia, "Coffee this week?"));
  const field = paula.page.getByRole("textbox", { name: "Message" });
  const sendButton = paula.page.getByRole("button", { name: /^(Send|Sending\.\.\.)$/ });

  // A chat screen: the top bar and the thread fill the phone exactly, as a chat app's: no tab bar
  // and no site footer under it, the page itself does not scroll, and the composer ends within
  // 24 px of the screen's foot. The back arrow leads to the inbox, and the tab bar is back.
  const fit = await paula.page.evaluate(() => ({
    page: document.scrollingElement!.scrollHeight,
    screen: window.innerHeight,
    composer: document.querySelector("main form textarea")!.getBoundingClientRect().bottom,
  }));
  expect(fit.page, JSON.stringify(fit)).toBeLessThanOrEqual(fit.screen);
  expect(fit.composer, JSON.stringify(fit)).toBeLessThanOrEqual(fit.screen);
  expect(fit.composer, JSON.stringify(fit)).toBeGreaterThan(fit.screen - 24);
  await expect(paula.page.getByRole("contentinfo")).toBeHidden();
  await expect(paula.page.getByRole("navigation", { name: "Sections" })).toBeHidden();
  // The header's three actions share one row, at 360 px too.
  await paula.page.setViewportSize(NARROW);
  const middles = await Promise.all(
    [
      paula.page.getByRole("button", { name: "Plan a meetup" }),
      paula.page.getByRole("button", { name: "Mute" }),
      paula.page.getByRole("link", { name: "Safety", exact: true }),
    ].map(async (action) => {
      const box = (await action.boundingBox())!;
      return Math.round(box.y + box.height / 2);
    }),
  );
  expect(Math.max(...middles) - Math.min(...middles), JSON.stringify(middles)).toBeLessThanOrEqual(1);
  await noHorizontalScroll(paula.page);
  await paula.page.setViewportSize(PHONE);
  await paula.page.getByRole("link", { name: "Back to messages" }).click();
  await expect(paula.page.getByRole("navigation", { name: "Sections" })).toBeVisible();
  await paula.page.goBack();
  await expect(field).toBeVisible();

  // Each message takes two seconds to reach the server (room for the checks on a loaded machine):
  // the field empties as it leaves, and the next is written meanwhile; it stays, and both arrive
  // once, in order.
  await paula.page.route("**/api/conversations/*/messages", async (route) => {
    if (route.request().method() === "POST") await new Promise((resolve) => setTimeout(resolve, 2_000));
    await route.fallback();
  });
  await field.fill("On my way to the market");
  await sendButton.click();
  await expect(field).toHaveValue("");
  await expect(sendButton).toHaveText("Sending...");
  await field.fill("Shall we meet at the fountain?");
  await expect(message(paula, "On my way to the market")).toBeVisible();
  await expect(field).toHaveValue("Shall we meet at the fountain?");
  await sendButton.click();
  await expect(message(paula, "Shall we meet at the fountain?")).toBeVisible();
  await expect(message(lucia, "Shall we meet at the fountain?")).toBeVisible({ timeout: 15_000 });
  await expect(message(lucia, "On my way to the market")).toHaveCount(1);
  const order = await thread(lucia).getByTestId("message").allTextContents();
  const [first, second] = ["On my way to the market", "Shall we meet at the fountain?"].map((text) =>
    order.findIndex((item) => item.includes(text)),
  );
  expect(first).toBeLessThan(second!);

  // One that cannot leave comes back to the field, ahead of what was written since, and says why.
  await paula.page.unroute("**/api/conversations/*/messages");
  await paula.page.route("**/api/conversations/*/messages", async (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await route.abort("internetdisconnected");
  });
  await field.fill("See you at six");
  await sendButton.click();
  await expect(field).toHaveValue("");
  await field.fill("Or seven?");
  await expect(paula.page.getByRole("alert").filter({ hasText: "Network error" })).toBeVisible();
  await expect(field).toHaveValue("See you at six\nOr seven?");
  await expect(message(paula, "See you at six")).toHaveCount(0);
  await paula.page.unroute("**/api/conversations/*/messages");
  await sendButton.click();
  await expect(message(lucia, "See you at six")).toBeVisible({ timeout: 15_000 });
  await expect(field).toHaveValue("");

  // Words not yet sent are the conversation's draft: going elsewhere in this tab (as a
  // notification's click does) and coming back finds them, so does a reload; sent, they are gone.
  const conversationUrl = paula.page.url();
  await field.fill("Half a thought");
  await paula.page.goto("/dashboard");
  await paula.page.goto(conversationUrl);
  await expect(field).toHaveValue("Half a thought");
  await paula.page.reload();
  await expect(field).toHaveValue("Half a thought");
  await sendButton.click();
  await expect(message(paula, "Half a thought")).toBeVisible();
  await paula.page.reload();
  await expect(message(paula, "Half a thought")).toBeVisible();
  await expect(field).toHaveValue("");
});
