import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./test";
import { DEMO_PASSWORD, demoEmail } from "../../lib/demo/data";
import { axe, LAPTOP, NARROW, noHorizontalScroll, PHONE, THEMES } from "./checks";
import { completeCouple, signIn } from "./support";

/**
 * Finding couples, walked by the seeded demo couple (Marisol & Thaddeus, Lisbon at city level) on a phone
 * and a wide screen in both themes: faces first, the filter sheet with its live count, nearest
 * first, search by a partner's first name and by city, the map, and no sideways scroll at 360 px
 * with a 50-character one-word name in the suggestions.
 */
test.describe.configure({ mode: "serial" });

const LONDON = "geonames:2643743";
const LISBON = "geonames:2267057";

async function marisol(browser: Browser, viewport: { width: number; height: number }, theme: (typeof THEMES)[number]) {
  const context = await browser.newContext({ viewport, colorScheme: theme });
  await context.addInitScript((chosen) => window.localStorage.setItem("theme", chosen), theme);
  const page = await context.newPage();
  await signIn(page, { email: demoEmail("Marisol"), password: DEMO_PASSWORD });
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  return page;
}

const cards = (page: Page) => page.getByRole("list", { name: "Couples", exact: true }).getByRole("listitem");

for (const theme of THEMES) {
  test(`on a phone (${theme}): faces first, the filter sheet's live count shows results in the first screen, chips remove filters`, async ({
    browser,
  }) => {
    const page = await marisol(browser, PHONE, theme);
    await page.goto("/directory");
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    // The first card, face first, starts within the first screen; every photo has its size set.
    const first = cards(page).first();
    await expect(first).toBeVisible();
    expect((await first.boundingBox())!.y).toBeLessThan(PHONE.height / 2);
    for (const image of await page.getByRole("list", { name: "Couples", exact: true }).locator("img").all()) {
      await expect(image).toHaveAttribute("width", "400");
      await expect(image).toHaveAttribute("height", "400");
    }
    await axe(page);

    await page.getByRole("button", { name: "Filters" }).click();
    const sheet = page.getByRole("dialog", { name: "Filters" });
    await expect(sheet).toBeVisible();
    await sheet.getByLabel("Distance").selectOption({ label: "Within 10 km" });
    const show = sheet.getByRole("button", { name: /^Show \d+ couples?$/ });
    await expect(show).toBeVisible();
    const shown = Number((await show.textContent())!.match(/\d+/)![0]);
    expect(shown).toBeGreaterThan(0);
    await axe(page);
    await show.click();
    await expect(sheet).toBeHidden();
    await expect(page).toHaveURL(/\/directory\?distance=10$/);
    // Couples other tests finish meanwhile may join the list: it holds what the sheet counted, and
    // anything more is what the count has grown by since.
    await expect.poll(() => cards(page).count()).toBeGreaterThanOrEqual(Math.min(shown, 24));
    const { data: now } = (await (await page.request.get("/api/directory/count?distance=10")).json()) as { data: { count: number } };
    expect(await cards(page).count()).toBeLessThanOrEqual(Math.min(now.count, 24));
    expect((await cards(page).first().boundingBox())!.y).toBeLessThan(PHONE.height / 2);
    for (const card of await cards(page).all()) await expect(card).toContainText("Within 10 km");

    await page.getByRole("link", { name: "Remove filter: Within 10 km" }).click();
    await expect(page).toHaveURL(/\/directory$/);
    await expect(page.getByRole("list", { name: "Active filters" })).toHaveCount(0);
    await noHorizontalScroll(page);
    await page.context().close();
  });

  test(`on a wide screen (${theme}): nearest first by default, every distance a band`, async ({ browser }) => {
    const page = await marisol(browser, LAPTOP, theme);
    await page.goto("/directory");
    await page.getByRole("button", { name: "Filters" }).click();
    await expect(page.getByRole("dialog", { name: "Filters" }).getByLabel("Sort by")).toHaveValue("nearest");
    await page.keyboard.press("Escape");
    const radii = await cards(page).evaluateAll((items) =>
      items.map((item) => {
        const match = item.textContent!.replace(/,/g, "").match(/(Within|More than) (\d+) km/);
        return match ? Number(match[2]) + (match[1] === "More than" ? 1 : 0) : Infinity;
      }),
    );
    expect(radii[0]).toBe(10);
    expect(radii).toEqual([...radii].sort((a, b) => a - b));
    await expect(page.getByRole("main")).not.toContainText("further away");
    await axe(page);
    await page.context().close();
  });
}

test("search finds a couple by a partner's first name and by city", async ({ browser, request }) => {
  const first = `Zephyrine${Date.now().toString(36)}`;
  const made = await completeCouple(browser, request, "finding-search", {
    userData: { firstName: first },
    coupleData: { coupleName: "The Quietfields", placeId: LONDON },
  });
  await made.page.context().close();
  for (const viewport of [PHONE, LAPTOP]) {
    const page = await marisol(browser, viewport, "light");
    await page.goto("/directory");
    await page.getByLabel("Search by name or city").fill(first.toLowerCase());
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`q=${first.toLowerCase()}`));
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toContainText("The Quietfields");

    await page.goto("/directory?q=London");
    await expect(cards(page).filter({ hasText: "Perpetua & Silvanus" })).toHaveCount(1);
    for (const card of await cards(page).all()) await expect(card).toContainText(/London/);
    await expect(page.getByRole("link", { name: "Remove filter: “London”" })).toBeVisible();
    await page.context().close();
  }
});

for (const theme of THEMES) {
  test(`the map (${theme}) shows the couples at their points, a mark opens the couple's card, the same couples as a list`, async ({
    browser,
  }) => {
    // Two screens, each signed in afresh and looked at with axe: about a minute on a quiet machine.
    test.setTimeout(150_000);
    for (const viewport of [PHONE, LAPTOP]) {
      const page = await marisol(browser, viewport, theme);
      await page.goto("/directory");
      await page.getByRole("link", { name: "Map", exact: true }).click();
      await expect(page).toHaveURL(/view=map/);
      const listed = page.getByRole("region", { name: "Couples on the map" }).getByRole("link");
      await expect(listed.first()).toBeVisible();
      const marks = page.getByRole("list", { name: "Marks on the map" });
      await expect(marks.getByRole("button").first()).toBeVisible();
      // It opens on Marisol's area (Lisbon), not the whole world: 'Show all couples' sits under the map, never over a mark.
      const showAll = page.getByRole("button", { name: "Show all couples" });
      await expect(showAll).toBeVisible();
      const canvas = (await marks.locator("xpath=ancestor::div[1]").boundingBox())!;
      expect((await showAll.boundingBox())!.y).toBeGreaterThanOrEqual(canvas.y + canvas.height);
      await showAll.click();
      await expect(showAll).toHaveCount(0);
      // A cluster of couples sharing Lisbon's snapped point opens their cards; a lone couple opens its own.
      const lone = marks.getByRole("button", { name: /: show their card$/ }).first();
      const name = (await lone.getAttribute("aria-label"))!.replace(/: show their card$/, "");
      await lone.click();
      const opened = page.getByRole("region", { name: "Chosen on the map" });
      await expect(opened.getByTestId("couple-name")).toHaveText(name);
      await expect(opened.getByRole("link").first()).toHaveAttribute("href", /\/profile\/[0-9a-f-]{36}$/);
      await expect(listed.filter({ hasText: name })).toHaveCount(1);
      await noHorizontalScroll(page);
      await axe(page);
      await page.context().close();
    }
  });
}

test("a 50-character one-word couple name never scrolls the dashboard, discover or the directory sideways at 360 px", async ({
  browser,
  request,
}) => {
  // Two couples made through onboarding, then eight pages each looked at with axe (about 90 s quiet).
  test.setTimeout(240_000);
  const long = `Bartholomewfitzgeraldson${Date.now().toString(36)}`.padEnd(50, "x");
  const interests = ["sailing", "skiing", "theatre", "writing", "dance"];
  const named = await completeCouple(browser, request, "finding-long", {
    coupleData: { coupleName: long, placeId: LISBON, interests, coupleTypes: ["culture_curators"] },
  });
  await named.page.context().close();
  const viewer = await completeCouple(browser, request, "finding-viewer", {
    coupleData: { coupleName: "Short & Sweet", placeId: LISBON, interests, coupleTypes: ["culture_curators"] },
  });
  const page = viewer.page;
  await page.setViewportSize(NARROW);
  for (const theme of THEMES) {
    await page.evaluate((chosen) => window.localStorage.setItem("theme", chosen), theme);
    for (const path of ["/dashboard", "/discover", "/directory", "/directory?view=map"]) {
      await page.goto(path);
      await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
      await expect(page.getByRole("main").getByText(long).first()).toBeVisible();
      await noHorizontalScroll(page);
      await axe(page);
    }
    // Discover's suggestion: face first, reasons as chips.
    await page.goto("/discover");
    const card = page.getByRole("article", { name: long });
    await expect(card.getByRole("list", { name: "Why we suggest them" }).getByRole("listitem").first()).toHaveText(
      /^(You all love|Both couples like) /,
    );
    await expect(card.getByTestId("face-placeholder")).toBeVisible();
  }
  await page.context().close();
});
