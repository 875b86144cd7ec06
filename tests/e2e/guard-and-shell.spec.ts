import { expect, test } from "./test";
import { DEMO_COUPLES, DEMO_PASSWORD, demoEmail } from "../../lib/demo/data";
import { BASE_URL } from "../../playwright.config";
import { registerViaApi, signIn, verifiedAccount } from "./support";

/** A seeded couple whose profile is complete and whose inbox is empty (scripts/seed/main.ts runs before the server starts). */
const complete = { email: demoEmail(DEMO_COUPLES[1]!.partnerA.firstName), password: DEMO_PASSWORD };

test.describe("route guard", () => {
  test("sends a signed-out visitor to sign in, remembering where they were going", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/forum/post/42?sort=new");
    await expect(page).toHaveURL("/login?from=%2Fforum%2Fpost%2F42%3Fsort%3Dnew");
    await page.goto("/profile-setup");
    await expect(page).toHaveURL("/login?from=%2Fonboarding");
    await page.goto("/no/such/page");
    await expect(page).toHaveURL(/\/login$/);

    await page.goto("/settings");
    await page.getByLabel("Email").fill(complete.email);
    await page.getByLabel("Password", { exact: true }).fill(complete.password);
    await page.getByRole("button", { name: "Let's Go!" }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
  });

  test("never follows a remembered origin off the site", async ({ page }) => {
    await page.goto("/login?from=%2F%2Fevil.example.com");
    await page.getByLabel("Email").fill(complete.email);
    await page.getByLabel("Password", { exact: true }).fill(complete.password);
    await page.getByRole("button", { name: "Let's Go!" }).click();
    // The run's own origin, not a port typed here: another E2E_PORT must pass too.
    await expect(page).toHaveURL(`${BASE_URL}/dashboard`);
  });

  test("refuses an unverified user at sign-in and keeps them out of guarded pages", async ({ page, request }) => {
    const account = await registerViaApi(request, "unverified");
    await signIn(page, account);
    await expect(
      page.getByText("Please verify your email address before logging in. Check your inbox for the verification link."),
    ).toBeVisible();
    await page.goto("/onboarding");
    await expect(page).toHaveURL("/login?from=%2Fonboarding");
  });

  test("keeps a user without a complete profile in onboarding", async ({ page, request }) => {
    const account = await verifiedAccount(request, "incomplete");
    await signIn(page, account);
    await expect(page).toHaveURL(/\/onboarding$/);
    for (const path of ["/dashboard", "/directory", "/profile/any-couple", "/profile-setup", "/"]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/onboarding$/);
    }
    await page.goto("/invite-partner");
    await expect(page).toHaveURL(/\/invite-partner$/);
    // Signed in, /register goes where the user belongs, unless asked to start over.
    await page.goto("/register");
    await expect(page).toHaveURL(/\/onboarding$/);
    await page.goto("/register?clear=true");
    await expect(page).toHaveURL(/\/register\?clear=true$/);
  });

  test("a signed-out session stays signed out even with the old cookie", async ({ page, context }) => {
    await signIn(page, complete);
    await expect(page).toHaveURL(/\/dashboard$/);
    const cookies = await context.cookies();
    // The page says so while it signs out, then moves on: its served HTML holds the words (on a
    // fast run the page has already left by the time a locator would look for them).
    const signingOut = await page.goto("/signout");
    expect(await signingOut!.text()).toContain("Signing out...");
    await expect(page).toHaveURL(/\/login$/);
    // Replaying the cookie from before sign-out: the server revoked that session.
    await context.addCookies(cookies);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByRole("button", { name: "Let's Go!" })).toBeVisible();
  });
});

test.describe("signed-in shell", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, complete);
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("navigation bar links, the IRL modal and the notification bell", async ({ page }) => {
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Global" }).click();
    await expect(page).toHaveURL(/\/forum$/);
    await nav.getByRole("link", { name: "Local" }).click();
    await expect(page).toHaveURL(/\/forum\/local$/);
    await nav.getByRole("link", { name: "Directory" }).click();
    await expect(page).toHaveURL(/\/directory$/);
    await nav.getByRole("link", { name: "Your Couple Profile" }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await nav.getByRole("link", { name: "Settings" }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await nav.getByRole("link", { name: "Notifications" }).click();
    await expect(page).toHaveURL(/\/notifications$/);
    await nav.getByRole("link", { name: /dashboard/ }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    await nav.getByRole("button", { name: "IRL" }).click();
    const dialog = page.getByRole("dialog", { name: "IRL Events Coming Soon!" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Got it!" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await nav.getByRole("button", { name: "IRL" }).click();
    await dialog.getByRole("button", { name: "Got it!" }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/dashboard$/);

    await nav.getByRole("button", { name: "Notifications" }).click();
    await expect(page.getByText("You're all caught up!")).toBeVisible();
    // The outside-click handler is armed 100 ms after opening (spec), like a person's next click.
    await page.waitForTimeout(150);
    await page.getByRole("heading", { level: 1 }).click();
    await expect(page.getByText("You're all caught up!")).toBeHidden();
    const bell = nav.getByRole("button", { name: "Notifications" });
    await bell.click();
    await page.keyboard.press("Escape");
    await expect(page.getByText("You're all caught up!")).toBeHidden();
    await expect(bell).toBeFocused();
    await bell.click();
    await page.getByRole("link", { name: "View All Notifications" }).click();
    await expect(page).toHaveURL(/\/notifications$/);
  });

  test("the theme toggle switches, is labelled for what it does, and is remembered", async ({ page }) => {
    const html = page.locator("html");
    await page.getByRole("button", { name: "Switch to dark mode" }).click();
    await expect(html).toHaveAttribute("data-theme", "dark");
    await page.reload();
    await expect(html).toHaveAttribute("data-theme", "dark");
    await page.getByRole("button", { name: "Switch to light mode" }).click();
    await expect(html).toHaveAttribute("data-theme", "light");
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("light");
  });
});

test("follows the system colour scheme when no theme was chosen", async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: "dark" });
  const page = await context.newPage();
  await page.goto("/login");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await context.close();
});

test.describe("hostile requests", () => {
  test("a server action posted to a page from another site, or from nowhere (an empty Origin), answers 403, never 500", async ({
    request,
  }) => {
    const action = { "Next-Action": "0123456789abcdef0123456789abcdef01234567", "Content-Type": "text/plain;charset=UTF-8" };
    const sent: { headers: Record<string, string>; data?: string }[] = [
      { headers: { ...action, Origin: "https://evil.example.com" }, data: "[]" },
      { headers: { ...action, Origin: "" }, data: "[]" },
      // Empty values, which Next's route conditions ignore: the guard does not run, the app's server refuses.
      { headers: { "Next-Action": "", Origin: "" } },
      { headers: { "Content-Type": "multipart/form-data; boundary=x", Origin: "" }, data: "--x--\r\n" },
    ];
    for (const path of ["/login", "/about", "/dashboard"])
      for (const { headers, data } of sent) {
        const response = await request.post(path, { headers, data, maxRedirects: 0 });
        expect(response.status(), `${path} ${JSON.stringify(headers)}`).toBe(403);
      }
  });

  test("an undecodable path answers 400 or 404, never 500, signed out and signed in", async ({ page, request }) => {
    const paths = ["/profile/%ff", "/api/couples/%ff/full-profile", "/api/images/avatar/%ff"];
    for (const path of paths) expect([400, 404]).toContain((await request.get(path, { maxRedirects: 0 })).status());
    await signIn(page, complete);
    await expect(page).toHaveURL(/\/dashboard$/);
    for (const path of paths) expect([400, 404]).toContain((await page.request.get(path, { maxRedirects: 0 })).status());
  });

  test("signing in sets the device cookie, HttpOnly", async ({ page, context }) => {
    await signIn(page, complete);
    await expect(page).toHaveURL(/\/dashboard$/);
    const device = (await context.cookies()).find((cookie) => cookie.name === "device");
    expect(device).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    expect(device!.value.length).toBeGreaterThan(20);
  });
});
