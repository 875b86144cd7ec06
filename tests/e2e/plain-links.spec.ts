import { expect, test, type Page } from "@playwright/test";
import { LAPTOP, PHONE } from "./checks";
import { runDatabase } from "./database";
import { newCouple, startConversation } from "./support";

/**
 * Links of a couple below trusted (lib/safety/spam-rules.ts: under NEW_COUPLE_DAYS old) in a
 * conversation's first PLAIN_LINK_FIRST_MESSAGES messages show as text for the other couple; a
 * trusted couple's links are links. Couples of their own (newCouple): both start new, and the
 * trusted one is aged in the run's database (only time could make it older).
 */
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

const thread = (who: { page: Page }) => who.page.getByRole("log", { name: "Messages" });
const message = (who: { page: Page }, text: string) => thread(who).getByTestId("message").filter({ hasText: text });

async function send(who: { page: Page }, text: string) {
  await who.page.getByRole("textbox", { name: "Message" }).fill(text);
  await who.page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(message(who, text)).toBeVisible();
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
  await send(trusted, "Or ours: https://example.org/cervejaria");
  const answer = message(fresh, "https://example.org/cervejaria");
  await expect(answer.getByRole("link", { name: "https://example.org/cervejaria" })).toHaveAttribute(
    "href",
    "https://example.org/cervejaria",
    { timeout: 15_000 },
  );
  // Marked as user content.
  await expect(answer.getByRole("link", { name: "https://example.org/cervejaria" })).toHaveAttribute(
    "rel",
    "nofollow noopener noreferrer ugc",
  );
  await expect(answer.locator("[data-plain-link]")).toHaveCount(0);
});
