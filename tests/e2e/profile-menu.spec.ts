import { expect, test, type Locator, type Page } from "@playwright/test";
import { DEMO_COUPLES, DEMO_PASSWORD, demoEmail } from "../../lib/demo/data";
import { axe, LAPTOP, PHONE, THEMES } from "./checks";
import { signIn } from "./support";

/**
 * Wrong notes on a couple's pages: 'Edit profile' on their own, a badge that says what it means,
 * destructive buttons that look it (and only they), Discover and Events in the menu, and the
 * blocked-couples page saying where blocking is possible.
 */

const priya = { email: demoEmail(DEMO_COUPLES[1]!.partnerA.firstName), password: DEMO_PASSWORD };
const maya = DEMO_COUPLES[0]!;
const mayaCouple = `${maya.partnerA.firstName} & ${maya.partnerB.firstName}`;

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

async function openMayaProfile(page: Page) {
  await page.goto(`/directory?q=${encodeURIComponent(mayaCouple)}`);
  await page.locator('a[href^="/profile/"]').first().click();
  await expect(page.getByRole("heading", { level: 1, name: mayaCouple })).toBeVisible();
}

for (const [size, viewport] of [
  ["phone", PHONE],
  ["laptop", LAPTOP],
] as const) {
  for (const theme of THEMES) {
    test(`own profile, another couple's badge and buttons, the menu (${size}, ${theme})`, async ({ browser }) => {
      const context = await browser.newContext({ viewport, colorScheme: theme, hasTouch: size === "phone" });
      await context.addInitScript((chosen) => window.localStorage.setItem("theme", chosen), theme);
      const page = await context.newPage();
      await signIn(page, priya);
      await expect(page).toHaveURL(/\/dashboard$/);

      await page.goto("/profile");
      await page.getByRole("link", { name: "Edit profile" }).click();
      await expect(page).toHaveURL(/\/settings\/couple$/);

      await openMayaProfile(page);
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

      // Block is drawn in the error colour; Report is not.
      const block = await colours(page.getByRole("button", { name: `Block ${mayaCouple}` }));
      expect(block.text).toBe(block.error);
      const report = await colours(page.getByRole("button", { name: "Report" }));
      expect(report.text).not.toBe(report.error);
      await page.getByRole("button", { name: `Block ${mayaCouple}` }).click();
      const confirm = await colours(page.getByRole("dialog").getByRole("button", { name: `Block ${mayaCouple}` }));
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
