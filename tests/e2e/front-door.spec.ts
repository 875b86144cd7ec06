import { expect, test } from "./test";
import { axe, LAPTOP, NARROW, noHorizontalScroll, PHONE, THEMES } from "./checks";

/**
 * The front door: /login stays a visitor's first page, and it and /register say in one line what
 * Two of Us is and for whom, with a link to the public /about (what couples do here, how partners
 * join, what is private, the guidelines, two pictures of the app).
 */

const LINE = "Two of Us is for couples without children who want to meet other couples.";

test("a visitor goes from /login to /about and on to /register", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText(LINE)).toBeVisible();
  await page.getByRole("link", { name: "What couples do here" }).click();

  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole("heading", { level: 1, name: "About Two of Us" })).toBeVisible();
  for (const section of ["What couples do here", "How partners join", "What is private", "Staying safe"])
    await expect(page.getByRole("heading", { level: 2, name: section })).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "community guidelines" })).toHaveAttribute("href", "/guidelines");
  await expect(page.getByRole("main").getByRole("link", { name: "privacy notice" })).toHaveAttribute("href", "/privacy");
  // The two pictures say what they show, and are there (not a broken image).
  for (const name of [/^The directory on a phone/, /^A conversation on a phone/]) {
    const picture = page.getByRole("img", { name });
    await picture.scrollIntoViewIfNeeded();
    await expect(picture).toBeVisible();
    await expect.poll(() => picture.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  }

  await page.getByRole("link", { name: "Create your account" }).click();
  await expect(page).toHaveURL(/\/register$/);
  await expect(page.getByText(LINE)).toBeVisible();
  await expect(page.getByRole("link", { name: "What couples do here" })).toHaveAttribute("href", "/about");
});

test("/about is prerendered and public: served as the build's bytes to a visitor", async ({ page }) => {
  const response = await page.goto("/about");
  expect(response!.status()).toBe(200);
  const headers = response!.headers();
  expect(headers["x-nextjs-prerender"] ?? headers["x-nextjs-cache"]).toBeTruthy();
  await expect(page).toHaveURL(/\/about$/);
});

for (const [size, viewport] of [
  ["phone", PHONE],
  ["laptop", LAPTOP],
] as const) {
  for (const theme of THEMES) {
    test(`/about, /login and /register pass axe with no sideways scroll (${size}, ${theme})`, async ({ browser }, testInfo) => {
      const context = await browser.newContext({ viewport, colorScheme: theme });
      await context.addInitScript((chosen) => window.localStorage.setItem("theme", chosen), theme);
      const page = await context.newPage();
      for (const path of ["/about", "/login", "/register"]) {
        await page.goto(path);
        await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
        await noHorizontalScroll(page);
        await axe(page);
        await page.screenshot({ path: testInfo.outputPath(`${path.slice(1)}-${size}-${theme}.png`), fullPage: path === "/about" });
      }
      await context.close();
    });
  }
}

test("/about fits a 360 px phone in both themes", async ({ browser }) => {
  for (const theme of THEMES) {
    const context = await browser.newContext({ viewport: NARROW, colorScheme: theme });
    await context.addInitScript((chosen) => window.localStorage.setItem("theme", chosen), theme);
    const page = await context.newPage();
    await page.goto("/about");
    await expect(page.getByRole("heading", { level: 1, name: "About Two of Us" })).toBeVisible();
    await noHorizontalScroll(page);
    await context.close();
  }
});
