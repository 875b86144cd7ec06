import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { LAPTOP, PHONE } from "./checks";
import { runDatabase } from "./database";
import { newCouple, startConversation } from "./support";
import { linkLabel } from "../../lib/plain-text";

/**
 * Links of a couple below trusted (lib/safety/spam-rules.ts: under NEW_COUPLE_DAYS old) in a
 * conversation's first PLAIN_LINK_FIRST_MESSAGES messages show as text for the other couple; a
 * trusted couple's links are links. Couples of their own (newCouple): both start new, and the
 * trusted one is aged in the run's database (only time could make it older). A long link shows
 * its start, without its scheme; the link keeps the whole address.
 */
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

const thread = (who: { page: Page }) => who.page.getByRole("log", { name: "Messages" });
const message = (who: { page: Page }, text: string) => thread(who).getByTestId("message").filter({ hasText: text });

/** Sends a message and waits for it in the sender's thread, by the words it shows (`shown`: a part of them). */
async function send(who: { page: Page }, text: string, shown = text) {
  await who.page.getByRole("textbox", { name: "Message" }).fill(text);
  await who.page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(message(who, shown)).toBeVisible();
}

test("a new couple's link in a first message is plain text for the other couple; a trusted couple's is a link", async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const fresh = await newCouple(browser, request, "Nadia", PHONE);
  const trusted = await newCouple(browser, request, "Tomas", LAPTOP);
  await runDatabase((db) => db`update couples set created_at = now() - interval '30 days' where couple_name = ${trusted.coupleName}`);

  await fresh.page.goto(await startConversation(fresh, trusted, "Dinner in Alfama?"));

  // The new couple's first message with a link: the receiver sees the address, not a link, live and after a reload.
  await send(fresh, "Our favourite place: https://example.com/tasca");
  const received = message(trusted, "https://example.com/tasca");
  await expect(received).toBeVisible({ timeout: 15_000 });
  await expect(received.locator("[data-plain-link]")).toHaveText("https://example.com/tasca");
  await expect(received.getByRole("link")).toHaveCount(0);
  await trusted.page.reload();
  await expect(received.locator("[data-plain-link]")).toHaveText("https://example.com/tasca");
  await expect(received.getByRole("link")).toHaveCount(0);

  // The trusted couple's link in the same early messages is a link for the new couple.
  const address = "https://example.org/cervejaria/lisboa/alfama/rua-dos-remedios/menu-do-dia";
  await send(trusted, `Or ours: ${address}`, "Or ours:");
  const answer = message(fresh, "Or ours:");
  const link = answer.getByRole("link", { name: linkLabel(address) });
  await expect(link).toHaveAttribute("href", address, { timeout: 15_000 });
  await expect(link).toHaveText("example.org/cervejaria/lisboa/alfama/ru…");
  // Marked as user content.
  await expect(link).toHaveAttribute("rel", "nofollow noopener noreferrer ugc");
  await expect(answer.locator("[data-plain-link]")).toHaveCount(0);
});
