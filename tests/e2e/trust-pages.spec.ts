import { expect, test } from "./test";
import { axe, LAPTOP, PHONE, THEMES } from "./checks";
import { completeCouple } from "./support";

/** The terms, the privacy notice, the community guidelines and the safety page: public, and linked from registration, the settings and every footer. */

for (const [size, viewport] of [
  ["phone", PHONE],
  ["laptop", LAPTOP],
] as const) {
  for (const theme of THEMES) {
    test(`a visitor reaches the trust pages from registration and the footer (${size}, ${theme})`, async ({ browser }) => {
      const page = await (await browser.newContext({ viewport, colorScheme: theme })).newPage();
      await page.goto("/register");
      const consent = page.getByText("By creating an account you agree to the Terms and the Privacy notice.");
      await expect(consent).toBeVisible();
      await consent.getByRole("link", { name: "Terms" }).click();
      await expect(page).toHaveURL(/\/terms$/);
      await expect(page.getByRole("heading", { level: 1, name: "Terms" })).toBeVisible();
      await axe(page);

      const footer = page.getByRole("contentinfo").getByRole("navigation", { name: "About Two of Us" });
      await footer.getByRole("link", { name: "Community guidelines" }).click();
      await expect(page).toHaveURL(/\/guidelines$/);
      await expect(page.getByRole("heading", { name: "How reports work" })).toBeVisible();
      await axe(page);
      await footer.getByRole("link", { name: "Privacy notice" }).click();
      await expect(page).toHaveURL(/\/privacy$/);
      await expect(page.getByText("City Level", { exact: true })).toBeVisible();
      await axe(page);
      await footer.getByRole("link", { name: "Safety" }).click();
      await expect(page).toHaveURL(/\/safety$/);
      await expect(page.getByRole("heading", { name: "Meeting other couples in person" })).toBeVisible();
      await expect(page.getByRole("form", { name: "Appeal a suspension" })).toBeVisible();
      await axe(page);
    });
  }
}

test("a member reaches them from the settings and the footer", async ({ browser, request }) => {
  const { page } = await completeCouple(browser, request, "trust", {
    coupleData: { coupleName: "Tess & Uma", placeId: "geonames:2267057" },
  });
  await page.goto("/settings");
  await page.getByRole("main").getByRole("link", { name: "Privacy notice" }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await page.goto("/dashboard");
  await page.getByRole("contentinfo").getByRole("link", { name: "Terms" }).click();
  await expect(page).toHaveURL(/\/terms$/);
});
