import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./test";
import { DEMO_COUPLES, DEMO_PASSWORD, demoEmail, directoryEmail } from "../../lib/demo/data";
import { axe, LAPTOP, NARROW, noHorizontalScroll, PHONE, THEMES, wholeTarget } from "./checks";
import { asSeeded, runDatabase } from "./database";
import { csrfToken, signIn } from "./support";

/**
 * Wrong notes on a couple's pages: 'Edit profile' on their own, a badge that says what it means,
 * destructive buttons that look it (and only they), Discover and Events in the menu, and the
 * blocked-couples page saying where blocking is possible.
 */

const perpetua = { email: demoEmail(DEMO_COUPLES[1]!.partnerA.firstName), password: DEMO_PASSWORD };
const marisol = DEMO_COUPLES[0]!;
const marisolCouple = `${marisol.partnerA.firstName} & ${marisol.partnerB.firstName}`;

/** The colour a locator's text is drawn in, and the theme's error colour, both as the browser computes them. */
async function colours(locator: Locator) {
  return locator.evaluate((element) => {
    const probe = document.createElement("span");
    probe.style.color = "var(--error)";
    document.body.append(probe);
    const error = getComputedStyle(probe).color;
    probe.remove();
    return { text: getComputedStyle(element).color, background: getComputedStyle(element).backgroundColor, error };
  });
}

async function openMarisolProfile(page: Page) {
  await page.goto(`/directory?q=${encodeURIComponent(marisolCouple)}`);
  await page.locator('a[href^="/profile/"]').first().click();
  await expect(page.getByRole("heading", { level: 1, name: marisolCouple })).toBeVisible();
}

for (const [size, viewport] of [
  ["phone", PHONE],
  ["laptop", LAPTOP],
] as const) {
  for (const theme of THEMES) {
    test(`own profile, another couple's badge and buttons, the menu (${size}, ${theme})`, async ({ browser }, testInfo) => {
      const context = await browser.newContext({ viewport, colorScheme: theme, hasTouch: size === "phone" });
      await context.addInitScript((chosen) => window.localStorage.setItem("theme", chosen), theme);
      const page = await context.newPage();
      await signIn(page, perpetua);
      await expect(page).toHaveURL(/\/dashboard$/);

      await page.goto("/profile");
      await page.getByRole("link", { name: "Edit profile" }).click();
      await expect(page).toHaveURL(/\/settings\/couple$/);

      await openMarisolProfile(page);
      const badge = page.getByRole("button", { name: "Verified Couple" });
      const meaning = page.getByText("Both partners joined and verified their e-mail");
      await expect(meaning).toBeHidden();
      if (size === "phone") await badge.tap();
      else await badge.focus();
      await expect(meaning).toBeVisible();
      await expect(badge).toHaveAttribute("aria-expanded", "true");
      await axe(page);
      await page.keyboard.press("Escape");
      await expect(meaning).toBeHidden();

      // Report and Block are in the profile's menu; Block is drawn in the error colour, Report is not.
      await page.locator(`summary[aria-label="More actions for ${marisolCouple}"]`).click();
      const block = await colours(page.getByRole("button", { name: `Block ${marisolCouple}` }));
      expect(block.text).toBe(block.error);
      const report = await colours(page.getByRole("button", { name: "Report" }));
      expect(report.text).not.toBe(report.error);
      await page.screenshot({ path: testInfo.outputPath(`profile-menu-open-${size}-${theme}.png`) });
      await page.getByRole("button", { name: `Block ${marisolCouple}` }).click();
      const confirm = await colours(page.getByRole("dialog").getByRole("button", { name: `Block ${marisolCouple}` }));
      expect(confirm.background).toBe(confirm.error);
      await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();

      // Discover and Events from the menu (the phone's menu, the wide bar).
      const nav = page.getByRole("navigation", { name: "Main" });
      if (size === "phone") await nav.getByRole("button", { name: "Menu" }).click();
      await nav.getByRole("link", { name: "Discover" }).click();
      await expect(page).toHaveURL(/\/discover$/);
      if (size === "phone") await nav.getByRole("button", { name: "Menu" }).click();
      await nav.getByRole("link", { name: "Events" }).click();
      await expect(page).toHaveURL(/\/events$/);

      await page.goto("/settings/blocked");
      const help = page.getByText(/To block a couple/);
      await expect(help.getByRole("link", { name: "directory" })).toHaveAttribute("href", "/directory");
      await expect(help.getByRole("link", { name: "forum" })).toHaveAttribute("href", "/forum");
      await expect(help).toContainText("profile");
      await context.close();
    });
  }
}

/** Two boxes touch when they overlap or lie closer than this (a finger's margin between two targets). */
const TARGET_GAP = 8;
const apart = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x + a.width + TARGET_GAP <= b.x ||
  b.x + b.width + TARGET_GAP <= a.x ||
  a.y + a.height + TARGET_GAP <= b.y ||
  b.y + b.height + TARGET_GAP <= a.y;

test("on a phone, a connected couple's profile: 'Message' and the menu are 44 px targets apart; Report and Block are in the menu", async ({
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  // Two seeded directory couples no other test connects: Isla says hello, Freya accepts.
  await asSeeded(["Isla", "Freya"]);
  const [isla, freya] = await Promise.all(
    ["Isla", "Freya"].map(async (firstName) => {
      const context = await browser.newContext({ viewport: NARROW, hasTouch: true });
      const page = await context.newPage();
      await signIn(page, { email: directoryEmail(firstName), password: DEMO_PASSWORD });
      await page.waitForURL((url) => !url.pathname.startsWith("/login"));
      return page;
    }),
  );
  const freyaCouple = "Freya & Oscar";
  await isla!.goto("/directory?q=Freya");
  const card = isla!.getByRole("list", { name: "Couples" }).getByRole("link").filter({ hasText: freyaCouple }).first();
  const coupleId = (await card.getAttribute("href"))!.split("/").pop()!;
  const sent = await isla!.request.post("/api/connections", {
    headers: { "X-CSRF-Token": await csrfToken(isla!) },
    data: { coupleId, note: "Hello from Isla and George!" },
  });
  expect(sent.status()).toBe(201);
  const requestId = ((await sent.json()) as { data: { id: string } }).data.id;
  const accepted = await freya!.request.post(`/api/connections/${requestId}/accept`, {
    headers: { "X-CSRF-Token": await csrfToken(freya!) },
  });
  expect(accepted.ok()).toBe(true);

  for (const theme of THEMES) {
    await isla!.emulateMedia({ colorScheme: theme });
    await isla!.evaluate((chosen) => window.localStorage.setItem("theme", chosen), theme);
    await isla!.goto(`/profile/${coupleId}`);
    await expect(isla!.getByRole("heading", { level: 1, name: freyaCouple })).toBeVisible();
    const message = isla!.getByRole("link", { name: `Message ${freyaCouple}` });
    const menu = isla!.locator(`summary[aria-label="More actions for ${freyaCouple}"]`);
    const report = isla!.getByRole("button", { name: "Report", exact: true });
    const block = isla!.getByRole("button", { name: `Block ${freyaCouple}` });
    // Report and Block wait in the menu; nothing but 'Message' and the menu's button sits in the header.
    await expect(message).toBeVisible();
    await expect(report).toBeHidden();
    await expect(block).toBeHidden();
    const messageBox = (await message.boundingBox())!;
    const menuBox = (await menu.boundingBox())!;
    for (const box of [messageBox, menuBox]) {
      expect(box.width).toBeGreaterThanOrEqual(44);
      expect(box.height).toBeGreaterThanOrEqual(44);
    }
    expect(apart(messageBox, menuBox), `'Message' ${JSON.stringify(messageBox)} touches the menu ${JSON.stringify(menuBox)}`).toBe(true);
    await noHorizontalScroll(isla!);

    await menu.tap();
    for (const item of [report, block]) {
      await expect(item).toBeVisible();
      const box = (await item.boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(44);
      // The open menu stays on the screen.
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(NARROW.width);
    }
    await noHorizontalScroll(isla!);
    await axe(isla!);
    await isla!.screenshot({ path: testInfo.outputPath(`profile-menu-open-360-${theme}.png`) });
    await block.tap();
    await expect(isla!.getByRole("dialog", { name: `Block ${freyaCouple}?` })).toBeVisible();
    await isla!.getByRole("dialog").getByRole("button", { name: "Cancel" }).tap();
    await expect(menu).toBeFocused();
  }
  // Wide, the same row: 'Message' first, the menu at its far end.
  await isla!.setViewportSize(LAPTOP);
  await isla!.reload();
  await isla!.screenshot({ path: testInfo.outputPath("profile-laptop-dark.png") });
  // The conversation's header at 360 px: the name has the first row to itself and shows whole; the
  // 'Photo verified' pill, Mute and Safety share the row under it; each is a whole 44 px target.
  await runDatabase((db) => db`update couples set photo_verified_partners = 1 where id = ${coupleId}`);
  await isla!.setViewportSize(NARROW);
  await isla!.goto(`/profile/${coupleId}`);
  await isla!.getByRole("link", { name: `Message ${freyaCouple}` }).tap();
  await expect(isla!).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
  await expect(isla!.getByRole("button", { name: "Photo verified" })).toBeVisible();
  const name = isla!.getByRole("heading", { level: 1 }).getByRole("link", { name: freyaCouple });
  await wholeTarget(name);
  expect(await name.evaluate((link) => link.scrollWidth <= link.clientWidth), `${freyaCouple} is cut short`).toBe(true);
  await wholeTarget(isla!.getByRole("button", { name: "Mute" }));
  await wholeTarget(isla!.getByRole("main").getByRole("link", { name: "Safety" }));
  await noHorizontalScroll(isla!);
  await isla!.screenshot({ path: testInfo.outputPath("conversation-phone.png") });
  // Wide, the name, Mute and Safety on one row, the pill under it.
  await isla!.setViewportSize(LAPTOP);
  await wholeTarget(isla!.getByRole("button", { name: "Mute" }));
  await isla!.screenshot({ path: testInfo.outputPath("conversation-laptop.png") });
  await isla!.context().close();
  await freya!.context().close();
});
