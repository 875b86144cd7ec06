import type { APIRequestContext, Browser } from "@playwright/test";
import { expect, test } from "./test";
import { completeCouple } from "./support";

/**
 * Mentions pick people, not only couple names: a partner's first name finds their couple, and the
 * suggestion says which partner matched, faces first; a wrong mention is fixed by editing the post
 * within the edit window.
 */
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

const LISBON = "geonames:2267057";
// Letters only, unique per run: what is typed after '@' finds these couples alone.
const tag = Date.now()
  .toString(36)
  .replace(/\d/g, (digit) => "abcdefghij"[Number(digit)]!);

async function couple(browser: Browser, request: APIRequestContext, firstName: string, coupleName: string) {
  const { page } = await completeCouple(browser, request, `mentions-${firstName.slice(0, 5).toLowerCase()}`, {
    userData: { firstName, bio: "Hi." },
    coupleData: { coupleName, placeId: LISBON },
  });
  return { page, coupleName };
}

test("a partner's first name finds their couple, named under it; editing the post fixes a wrong mention", async ({ browser, request }) => {
  test.setTimeout(180_000);
  const quiet = await couple(browser, request, `Andre${tag}`, `The Quietfields ${tag}`);
  const named = await couple(browser, request, `Paula${tag}`, `Andre${tag}s & Kai`);
  const writer = await couple(browser, request, "Marta", `Marta${tag} & Nuno`);
  const { page } = writer;

  await page.goto("/forum");
  await page.getByRole("button", { name: "New Post" }).click();
  const composer = page.getByRole("form", { name: "New Post" });
  await composer.getByLabel("Title").fill(`Dinner ${tag}`);
  await composer.getByLabel("Topic").selectOption({ label: "Meetups" });
  const body = composer.getByRole("textbox", { name: "Your post" });
  await body.pressSequentially(`Thanks @Andre${tag}`);
  const options = page.getByRole("listbox", { name: "Couples to mention" }).getByRole("option");
  // Both couples are offered; the one found by a partner's name says who matched.
  await expect(options).toHaveCount(2);
  await expect(options.filter({ hasText: quiet.coupleName })).toContainText(`Andre${tag}`);
  await expect(options.filter({ hasText: named.coupleName })).not.toContainText(`Paula${tag}`);
  // The writer picks the wrong one first.
  await options.filter({ hasText: named.coupleName }).click();
  await body.pressSequentially("for the tip!");
  await composer.getByRole("button", { name: "Publish Post" }).click();
  const article = page.getByRole("article");
  await expect(article.getByRole("link", { name: `@${named.coupleName}` })).toBeVisible();

  // Fixed within the edit window: the mention now names the couple they meant.
  await page.locator('summary[aria-label="Post actions"]').click();
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  const editor = page.getByRole("form", { name: "Edit post" });
  const field = editor.getByLabel("Your post");
  await field.fill("Thanks ");
  await field.press("End");
  await field.pressSequentially(`@Andre${tag}`);
  await page.getByRole("listbox", { name: "Couples to mention" }).getByRole("option").filter({ hasText: quiet.coupleName }).click();
  await field.pressSequentially("for the tip!");
  await editor.getByRole("button", { name: "Save Changes" }).click();
  await expect(article.getByRole("link", { name: `@${quiet.coupleName}` })).toBeVisible();
  await expect(article.getByRole("link", { name: `@${named.coupleName}` })).toHaveCount(0);
  await Promise.all([quiet.page.context().close(), named.page.context().close(), page.context().close()]);
});
