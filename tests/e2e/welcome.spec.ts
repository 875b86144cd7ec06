import { expect, test } from "./test";
import { DEMO_COUPLES, DEMO_PASSWORD, demoEmail } from "../../lib/demo/data";
import { axe, LAPTOP, PHONE, THEMES } from "./checks";
import { completeCouple, signIn } from "./support";

/** 'Welcome' on a person's first dashboard visit, 'Welcome back' on the visits after (lib/dashboard/rules.ts). */

for (const [size, viewport] of [
  ["phone", PHONE],
  ["laptop", LAPTOP],
] as const) {
  for (const theme of THEMES) {
    test(`'Welcome' first, 'Welcome back' for a member of weeks (${size}, ${theme})`, async ({ browser, request }) => {
      const coupleName = `Wren ${Date.now().toString(36).replace(/\d/g, "x")} & Lee`;
      const { page } = await completeCouple(browser, request, `welcome-${size}-${theme}`, {
        coupleData: { coupleName, placeId: "geonames:2267057" },
      });
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: theme });
      await page.evaluate((chosen) => window.localStorage.setItem("theme", chosen), theme);
      await page.goto("/dashboard");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Welcome, ${coupleName}!`);
      // The same visit, the page loaded again: still the first.
      await page.reload();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Welcome, ${coupleName}!`);
      await axe(page);

      const member = await (await browser.newContext({ viewport, colorScheme: theme })).newPage();
      await signIn(member, { email: demoEmail(DEMO_COUPLES[0]!.partnerA.firstName), password: DEMO_PASSWORD });
      await expect(member).toHaveURL(/\/dashboard$/);
      await expect(member.getByRole("heading", { level: 1 })).toHaveText(/^Welcome back, /);
    });
  }
}
