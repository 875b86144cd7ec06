import { expect, test } from "./test";
import { DEMO_PASSWORD, demoEmail } from "../../lib/demo/data";
import { axe, NARROW, noHorizontalScroll, THEMES } from "./checks";
import { signIn } from "./support";

/**
 * The directory and the full couple profile, walked by the seeded demo couple (Marisol &
 * Thaddeus, Lisbon at city level) among the seeded neighbours: filter by an interest and a distance
 * band, open a couple, read the Venn and both partners without any private field.
 */
test.describe.configure({ mode: "serial" });

test("'Load more' adds the next couples after the first page's, each couple once", async ({ page }) => {
  await signIn(page, { email: demoEmail("Marisol"), password: DEMO_PASSWORD });
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  await page.goto("/directory");
  const names = page.getByRole("list", { name: "Couples", exact: true }).getByTestId("couple-name");
  await expect(names).toHaveCount(24);
  const firstPage = await names.allTextContents();
  // By the keyboard: focus stays on the button while a page loads, and a polite status says what came.
  const more = page.getByRole("button", { name: /^(Load more|Loading\.\.\.)$/ });
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/directory\?/, async (route) => {
    await held;
    await route.continue();
  });
  await more.focus();
  await page.keyboard.press("Enter");
  await expect(more).toHaveText("Loading...");
  await expect(more).toHaveAttribute("aria-disabled", "true");
  await expect(more).toBeFocused();
  release();
  await expect.poll(() => names.count()).toBeGreaterThan(24);
  const all = await names.allTextContents();
  expect(all.slice(0, 24)).toEqual(firstPage);
  expect(new Set(all).size).toBe(all.length);
  const heard = page.getByRole("status").filter({ hasText: /^\d+ more shown/ });
  await expect(heard).toHaveText(`${all.length - 24} more shown${(await more.count()) ? "" : "; that is the end of the list"}`);
  // To the last page: the button goes, and focus moves to the first couple that page brought, not the page's body.
  let before = 24;
  while ((await more.count()) > 0) {
    await expect(more).toBeFocused();
    before = await names.count();
    await page.keyboard.press("Enter");
    await expect.poll(() => names.count()).toBeGreaterThan(before);
  }
  await expect(heard).toHaveText(/; that is the end of the list$/);
  const lastPageFirst = page.getByRole("list", { name: "Couples", exact: true }).getByRole("listitem").nth(before);
  await expect(lastPageFirst.getByRole("link").first()).toBeFocused();
});

test("the demo couple filters the directory by an interest and a distance band and opens a couple", async ({ page }) => {
  await signIn(page, { email: demoEmail("Marisol"), password: DEMO_PASSWORD });
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  await page.goto("/directory");
  await expect(page.getByRole("heading", { level: 1, name: "Directory" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Couples" }).getByRole("listitem").first()).toBeVisible();

  // An interest and a distance band, through the filter sheet; the address carries the API's names.
  await page.getByRole("button", { name: "Filters" }).click();
  const sheet = page.getByRole("dialog", { name: "Filters" });
  await sheet.getByRole("checkbox", { name: "Travel", exact: true }).check();
  await sheet.getByLabel("Distance").selectOption({ label: "Within 10 km" });
  await sheet.getByRole("button", { name: /^Show \d+ couples?$/ }).click();
  await expect(page).toHaveURL(/\/directory\?interests=travel&distance=10$/);
  const cards = page.getByRole("list", { name: "Couples", exact: true }).getByRole("listitem");
  await expect(cards.first()).toBeVisible();
  for (const card of await cards.all()) await expect(card).toContainText("Within 10 km");
  await expect(page.getByRole("list", { name: "Active filters" }).getByRole("link")).toHaveText([
    "Within 10 km ×",
    "Travel ×",
    "Clear filters",
  ]);

  // Unknown values in a hand-edited address are ignored, not an error page.
  await page.goto("/directory?distance=30&interests=bogus&sort=random");
  await expect(page.getByRole("heading", { level: 1, name: "Directory" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Active filters" })).toHaveCount(0);

  // No match: the empty state and its way out.
  await page.goto("/directory?q=nobody-is-called-this");
  await expect(page.getByText("No couples match these filters.")).toBeVisible();
  await page.getByRole("main").getByRole("link", { name: "Clear filters" }).last().click();
  await expect(page).toHaveURL(/\/directory$/);

  // Open a couple near by: the full profile with the Venn and both partners.
  await page.goto("/directory?interests=travel&distance=10");
  const first = cards.first();
  const name = (await first.getByTestId("couple-name").textContent())!;
  await first.getByRole("link").click();
  await expect(page).toHaveURL(/\/profile\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const venn = page.getByRole("region", { name: "Interests in common" });
  await expect(venn.getByRole("heading", { name: /All four of you/ })).toBeVisible();
  await expect(venn.getByRole("heading", { name: /Both couples/ })).toBeVisible();
  await expect(venn.getByRole("heading", { name: /Only yours/ })).toBeVisible();
  await expect(venn.getByRole("heading", { name: new RegExp(`Only ${name}`) })).toBeVisible();
  // Both couples picked travel: it is shared.
  await expect(page.getByTestId("venn-shared")).toContainText("Travel");
  await expect(page.getByText("Within 10 km")).toBeVisible();
  const partners = page
    .getByRole("region", { name: "The two of us" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { level: 3 }) });
  await expect(partners).toHaveCount(2);
  for (const heading of await partners.getByRole("heading", { level: 3 }).all()) await expect(heading).toHaveText(/^\p{L}+, \d{2}$/u);
  // The seeded neighbours' last names, e-mails and birth dates are nowhere on the page.
  const text = await page.locator("body").innerText();
  expect(text).not.toMatch(/Silva|Costa|@demo\.couples\.test|19\d\d-\d\d-\d\d/);
  await page.locator(`summary[aria-label="More actions for ${name}"]`).click();
  await expect(page.getByRole("button", { name: "Report" })).toBeVisible();
  await expect(page.getByRole("button", { name: `Block ${name}` })).toBeVisible();
});

test("a couple's photos open in a lightbox that the keyboard drives", async ({ page }) => {
  await signIn(page, { email: demoEmail("Marisol"), password: DEMO_PASSWORD });
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  await page.goto("/directory?q=Perpetua");
  await page.getByRole("list", { name: "Couples", exact: true }).getByRole("link").first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Perpetua & Silvanus" })).toBeVisible();
  // The extra photos are buttons named by their photo; the lightbox runs over the main one too.
  const opener = page.getByRole("button", { name: "Perpetua & Silvanus, photo 1 of 2" });
  await opener.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog", { name: "Perpetua & Silvanus, photo 1 of 2" })).toBeVisible();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("dialog", { name: "Perpetua & Silvanus, photo 2 of 2" })).toBeVisible();
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByRole("dialog", { name: "Perpetua & Silvanus, main photo" })).toBeVisible();
  await page.getByRole("button", { name: "Previous" }).click();
  await expect(page.getByRole("dialog", { name: "Perpetua & Silvanus, photo 2 of 2" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(opener).toBeFocused();
});

for (const theme of THEMES) {
  test(`the directory with its filters open, its empty state and a full profile pass axe at 360 px in the ${theme} theme, without sideways scroll`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: NARROW, colorScheme: theme });
    await context.addInitScript((chosen) => window.localStorage.setItem("theme", chosen), theme);
    const page = await context.newPage();
    await signIn(page, { email: demoEmail("Marisol"), password: DEMO_PASSWORD });
    await page.waitForURL((url) => !url.pathname.startsWith("/login"));
    for (const path of ["/directory?interests=travel&styles=culture_curators", "/directory?q=nobody-is-called-this"]) {
      await page.goto(path);
      await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
      await noHorizontalScroll(page);
      await axe(page);
    }
    await page.goto("/directory?q=Perpetua");
    await page.getByRole("list", { name: "Couples", exact: true }).getByRole("link").first().click();
    await expect(page.getByRole("heading", { name: "Interests in common" })).toBeVisible();
    await axe(page);
    await context.close();
  });
}
