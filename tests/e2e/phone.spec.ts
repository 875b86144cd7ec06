import { mkdir } from "node:fs/promises";
import type { Browser, BrowserContext, Locator, Page } from "@playwright/test";
import { expect, test } from "./test";
import sharp from "sharp";
import { DEMO_COUPLES, DEMO_PASSWORD, demoEmail } from "../../lib/demo/data";
import { axe, LAPTOP, NARROW, noHorizontalScroll, PHONE, THEMES } from "./checks";
import { signIn, verifiedAccount } from "./support";

/**
 * Phone first: at a phone's 390x844 and a laptop's 1280x800, in both themes, every
 * page fits with no horizontal scroll and passes axe-core; the shell, the bell, onboarding, the
 * invitation screens and the profile keep their boxes apart and their targets at 44 px.
 */

const VIEWPORTS = [
  ["phone", PHONE],
  ["laptop", LAPTOP],
] as const;

/** A seeded couple with a complete profile (scripts/seed/main.ts), and another one to visit. */
const member = { email: demoEmail(DEMO_COUPLES[2]!.partnerA.firstName), password: DEMO_PASSWORD };
/** Partner B who joined but has not set up yet: the invitation's set-up screen. */
const unfinishedB = DEMO_COUPLES.find((couple) => !couple.partnerB.finished)!.partnerB;

const SIGNED_IN_PAGES = [
  "/dashboard",
  "/forum",
  "/forum/local",
  "/directory",
  "/profile",
  "/settings",
  "/notifications",
  "/events",
  "/messages",
  "/discover",
];
/** The rest of a member's reach: pages off the navigation, and the not-found page an unknown couple gets. */
const MORE_SIGNED_IN_PAGES = ["/events/create", "/invite-partner", "/profile/00000000-0000-4000-8000-000000000000"];
const PUBLIC_PAGES = [
  "/login",
  "/register",
  "/forgot-password",
  "/reset-password",
  "/verify-email?email=someone%40example.com",
  "/invitation/accept?token=not-a-real-token",
  "/register?invite=not-a-real-token",
  "/terms",
  "/privacy",
  "/guidelines",
];

/** One sign-in for the whole file: its cookies are handed to every context. */
let memberState: Awaited<ReturnType<BrowserContext["storageState"]>>;
test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, member);
  await expect(page).toHaveURL(/\/dashboard$/);
  memberState = await context.storageState();
  await context.close();
});

async function open(
  browser: Browser,
  viewport: { width: number; height: number },
  theme: "light" | "dark",
  signedIn = true,
): Promise<Page> {
  const context = await browser.newContext({ viewport, storageState: signedIn ? memberState : undefined, colorScheme: theme });
  await context.addInitScript((chosen) => window.localStorage.setItem("theme", chosen), theme);
  return context.newPage();
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found, `${locator} has a box`).not.toBeNull();
  return found!;
}

function apart(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
}

async function atLeast44(locator: Locator) {
  const found = await box(locator);
  expect(found.width, `${locator} width`).toBeGreaterThanOrEqual(44);
  expect(found.height, `${locator} height`).toBeGreaterThanOrEqual(44);
}

async function image(dir: string, name: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = `${dir}/${name}`;
  await sharp({ create: { width: 900, height: 700, channels: 3, background: "#336699" } })
    .jpeg()
    .toFile(path);
  return path;
}

for (const [size, viewport] of VIEWPORTS) {
  for (const theme of THEMES) {
    test(`every page at ${size} size in the ${theme} theme: no sideways scroll, no axe violations`, async ({ browser }, testInfo) => {
      // Twenty-two pages, each with an axe pass.
      test.setTimeout(420_000);
      const page = await open(browser, viewport, theme);
      // A forum thread and another couple's profile, found as a member finds them.
      await page.goto("/forum");
      const thread = await page.locator('a[href^="/forum/post/"]').first().getAttribute("href");
      const couple = await page.locator('a[href^="/profile/"]').first().getAttribute("href");
      for (const path of [...SIGNED_IN_PAGES, ...MORE_SIGNED_IN_PAGES, thread!, couple!]) {
        await page.goto(path);
        await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
        await noHorizontalScroll(page);
        await axe(page);
        if (path === "/dashboard" || path === "/profile")
          await page.screenshot({ path: testInfo.outputPath(`${path.slice(1)}-${size}-${theme}.png`), fullPage: true });
      }
      const visitor = await open(browser, viewport, theme, false);
      for (const path of PUBLIC_PAGES) {
        await visitor.goto(path);
        await noHorizontalScroll(visitor);
        await axe(visitor);
      }
    });
  }
}

test("the phone shell: one-row top bar, tab bar, a menu with the rest, the bell as a sheet, 44 px targets; all fits 360 px", async ({
  browser,
}, testInfo) => {
  const page = await open(browser, PHONE, "light");
  await page.goto("/dashboard");
  const top = page.getByRole("navigation", { name: "Main" });
  expect((await box(top)).height).toBeLessThanOrEqual(64);
  const tabs = page.getByRole("navigation", { name: "Sections" });
  for (const name of ["Global", "Local", "Directory", "Messages", "Profile"])
    await atLeast44(tabs.getByRole("link", { name, exact: true }));
  await expect(top.getByRole("link", { name: "Settings" })).toBeHidden();

  const menuButton = top.getByRole("button", { name: "Menu" });
  for (const control of [
    top.getByRole("link", { name: "Two of Us, dashboard" }),
    top.getByRole("button", { name: "Notifications" }),
    menuButton,
  ]) {
    expect((await box(control)).height).toBeGreaterThanOrEqual(44);
  }
  await menuButton.click();
  await expect(menuButton).toHaveAttribute("aria-expanded", "true");
  const irl = top.getByRole("button", { name: "IRL" });
  await expect(irl).toBeFocused();
  for (const entry of [
    irl,
    top.getByRole("link", { name: "Settings" }),
    top.getByRole("link", { name: "Notifications" }),
    top.getByRole("button", { name: "Switch to dark mode" }),
    top.getByRole("link", { name: "Sign out" }),
  ]) {
    await atLeast44(entry);
  }
  await page.screenshot({ path: testInfo.outputPath("menu-phone.png") });
  await page.keyboard.press("Escape");
  await expect(irl).toBeHidden();
  await expect(menuButton).toBeFocused();
  await menuButton.click();
  await irl.click();
  const dialog = page.getByRole("dialog", { name: "IRL Events Coming Soon!" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Got it!" }).click();
  await expect(dialog).toBeHidden();
  // Its opener went with the menu: focus goes back to the menu's button.
  await expect(menuButton).toBeFocused();
  await menuButton.click();
  await top.getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/settings$/);

  // The bell's dropdown is a sheet inside the screen, its footer link in view.
  await top.getByRole("button", { name: /^Notifications/ }).click();
  const sheet = page.getByRole("region", { name: "Latest notifications" });
  await expect(sheet.getByRole("link", { name: "View All Notifications" })).toBeVisible();
  const sheetBox = await box(sheet);
  expect(sheetBox.x).toBeGreaterThanOrEqual(0);
  expect(sheetBox.x + sheetBox.width).toBeLessThanOrEqual(PHONE.width);
  expect(sheetBox.y + sheetBox.height).toBeLessThanOrEqual(PHONE.height);
  const footer = await box(sheet.getByRole("link", { name: "View All Notifications" }));
  expect(footer.y + footer.height).toBeLessThanOrEqual(PHONE.height);
  await page.screenshot({ path: testInfo.outputPath("bell-phone.png") });

  await page.setViewportSize(NARROW);
  for (const path of SIGNED_IN_PAGES) {
    await page.goto(path);
    await noHorizontalScroll(page);
  }
});

test("tablets and small laptops (768 and 1,024 px): one bar with the main areas and the tab bar's links, a menu with the rest; IRL from the bar gives focus back to it", async ({
  browser,
}) => {
  for (const width of [768, 1024]) {
    const page = await open(browser, { width, height: 1024 }, "dark");
    await page.goto("/dashboard");
    const top = page.getByRole("navigation", { name: "Main" });
    expect((await box(top)).height, `the bar at ${width} px`).toBeLessThanOrEqual(64);
    await expect(page.getByRole("navigation", { name: "Sections" })).toBeHidden();
    for (const name of ["Global", "Local", "Directory", "Messages", "Your Couple Profile"])
      await atLeast44(top.getByRole("link", { name, exact: true }));
    for (const name of ["Discover", "Events", "Settings", "Notifications"])
      await expect(top.getByRole("link", { name, exact: true })).toBeHidden();

    const menuButton = top.getByRole("button", { name: "Menu" });
    await menuButton.click();
    for (const entry of [
      ...["Discover", "Events", "Settings", "Notifications"].map((name) => top.getByRole("link", { name, exact: true })),
      top.getByRole("button", { name: "Switch to light mode" }),
      top.getByRole("link", { name: "Sign out" }),
    ])
      await atLeast44(entry);
    // IRL is the bar's, not the menu's too.
    const irl = top.getByRole("button", { name: "IRL" });
    await expect(irl).toHaveCount(1);
    await page.keyboard.press("Escape");
    await expect(menuButton).toBeFocused();

    await irl.click();
    const dialog = page.getByRole("dialog", { name: "IRL Events Coming Soon!" });
    await dialog.getByRole("button", { name: "Got it!" }).click();
    await expect(dialog).toBeHidden();
    await expect(irl).toBeFocused();
    await menuButton.click();
    await top.getByRole("link", { name: "Settings" }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await noHorizontalScroll(page);
    await page.context().close();
  }
});

test("the laptop shell keeps one bar with every link and the bell's dropdown in view", async ({ browser }) => {
  const page = await open(browser, LAPTOP, "light");
  await page.goto("/dashboard");
  const top = page.getByRole("navigation", { name: "Main" });
  expect((await box(top)).height).toBeLessThanOrEqual(64);
  for (const name of ["Global", "Local", "Directory", "Your Couple Profile", "Settings", "Notifications"])
    await expect(top.getByRole("link", { name, exact: true })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Sections" })).toBeHidden();
  await expect(top.getByRole("button", { name: "Menu" })).toBeHidden();
  await top.getByRole("button", { name: /^Notifications/ }).click();
  const sheetBox = await box(page.getByRole("region", { name: "Latest notifications" }));
  expect(sheetBox.x).toBeGreaterThanOrEqual(0);
  expect(sheetBox.x + sheetBox.width).toBeLessThanOrEqual(LAPTOP.width);
});

test("an unknown or malformed couple or post id answers 404; an unknown top-level path still goes to /", async ({ browser }) => {
  const page = await open(browser, LAPTOP, "light");
  for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
    const response = await page.goto(`/profile/${id}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  }
  for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"])
    expect((await page.goto(`/forum/post/${id}`))?.status()).toBe(404);
  await page.goto("/no-such-page");
  await expect(page).toHaveURL(/\/dashboard$/);
});

for (const [size, viewport] of VIEWPORTS) {
  for (const theme of THEMES) {
    test(`onboarding at ${size} size in the ${theme} theme: header on one row, both steps' previews clear of the labels, why 'Continue Setup' waits`, async ({
      browser,
      request,
    }, testInfo) => {
      test.setTimeout(120_000);
      const file = await image(testInfo.outputPath("images"), "photo.jpg");
      const account = await verifiedAccount(request, `phone-onboarding-${size}-${theme}`);
      const page = await open(browser, viewport, theme, false);
      const context = page.context();
      await signIn(page, account);
      await expect(page).toHaveURL(/\/onboarding$/);
      expect((await box(page.locator("header.navbar"))).height).toBeLessThanOrEqual(64);
      await expect(page.getByText("Confirm your location above to continue.")).toBeVisible();
      if (viewport === PHONE) {
        await page.setViewportSize(NARROW);
        expect((await box(page.locator("header.navbar"))).height).toBeLessThanOrEqual(64);
        await noHorizontalScroll(page);
        await page.setViewportSize(viewport);
      }

      const pick = async (label: string) => {
        await page.getByRole("group", { name: label }).locator('input[type="file"]').setInputFiles(file);
        const dialog = page.getByRole("dialog", { name: "Crop Your Image" });
        await dialog.getByRole("button", { name: "Apply Crop" }).click();
        await expect(dialog).toBeHidden();
      };
      await pick("Profile photo");
      const preview = page.getByRole("group", { name: "Profile photo" });
      const previewBox = await box(preview);
      for (const label of [page.locator("label", { hasText: "Occupation" }), page.getByText("Location", { exact: true }).first()]) {
        expect(apart(previewBox, await box(label)), `${label} clear of the photo`).toBe(true);
      }
      await noHorizontalScroll(page);
      await axe(page);
      await page.screenshot({ path: testInfo.outputPath(`step1-${size}-${theme}.png`), fullPage: true });

      await page.getByRole("combobox", { name: "Location" }).fill("lisb");
      await page.getByRole("option", { name: /^Lisbon\s*Portugal$/ }).click();
      await expect(page.getByText("Confirm your location above to continue.")).toBeHidden();
      await page.getByLabel("Occupation").fill("Cartographer");
      const interests = page.getByRole("group", { name: "Interests" });
      const closed = interests.locator("details:not([open]) > summary");
      while ((await closed.count()) > 0) await closed.first().click();
      for (const name of ["Travel", "Food & Dining", "Wine Tasting", "Music", "Reading"])
        await page.getByRole("checkbox", { name, exact: true }).check();
      await page.getByRole("button", { name: "Continue Setup" }).click();

      await expect(page.getByRole("heading", { level: 1, name: "Create your couple profile" })).toBeVisible();
      await pick("Main couple photo");
      const main = await box(page.getByRole("group", { name: "Main couple photo" }));
      expect(apart(main, await box(page.getByText("More couple photos (optional)").first()))).toBe(true);
      await noHorizontalScroll(page);
      await axe(page);
      await page.screenshot({ path: testInfo.outputPath(`step2-${size}-${theme}.png`), fullPage: true });
      await context.close();
    });

    test(`the invitation's set-up screen at ${size} size in the ${theme} theme: photo preview clear of the fields, no sideways scroll, no axe violations`, async ({
      browser,
    }, testInfo) => {
      const file = await image(testInfo.outputPath("images"), "partner.jpg");
      const page = await open(browser, viewport, theme, false);
      const context = page.context();
      await signIn(page, { email: demoEmail(unfinishedB.firstName), password: DEMO_PASSWORD });
      await expect(page).not.toHaveURL(/\/login/);
      await page.goto("/partner-setup");
      await expect(page.getByRole("heading", { level: 1, name: /^Welcome to / })).toBeVisible();
      await page.getByLabel("Profile Photo (optional)").setInputFiles(file);
      const preview = await box(page.getByRole("img", { name: "Your profile photo preview" }));
      expect(apart(preview, await box(page.getByText("Occupation (optional)")))).toBe(true);
      expect(apart(preview, await box(page.getByText("Profile Photo (optional)")))).toBe(true);
      await noHorizontalScroll(page);
      await axe(page);
      await page.screenshot({ path: testInfo.outputPath(`partner-setup-${size}-${theme}.png`), fullPage: true });
      await context.close();
    });
  }
}
