import { expect, test } from "./test";
import { UNGUARDED_PAGES } from "../../lib/csp/static-pages";
import { DEMO_COUPLES, DEMO_PASSWORD, demoEmail } from "../../lib/demo/data";
import { signIn, verifiedAccount } from "./support";
import { PHONE } from "./checks";
import { instrument, type Measured } from "./shifts";

/**
 * Speed in a real browser: the public pages are prerendered under a strict script policy (no
 * nonce, no 'unsafe-inline': their inline scripts by hash) and run without a single violation;
 * pages rendered per request keep their nonce; nothing shifts while the pages load (CLS 0, with
 * the CPU slowed 4x as Lighthouse's phone does, so the browser paints the HTML while it is still
 * parsing it: a box centred on content still arriving, a row right-aligned on buttons still to
 * come, would show up here as a shift).
 */

const complete = { email: demoEmail(DEMO_COUPLES[1]!.partnerA.firstName), password: DEMO_PASSWORD };

const scriptSrc = (csp: string | undefined) =>
  (csp ?? "")
    .split(";")
    .map((d) => d.trim())
    .find((d) => d.startsWith("script-src")) ?? "";

/** No policy violation and no layout shift at all (CLS exactly 0), with what moved when one comes back. */
function expectStill(measured: Measured, path: string) {
  expect(measured.violations, path).toEqual([]);
  expect(measured.shifts, `${path} shifted as it loaded`).toEqual([]);
}

test.describe("speed", () => {
  test.use({ viewport: PHONE });

  test("public pages are prerendered under a hash-based policy and run without a violation or a shift", async ({ page }) => {
    const measure = await instrument(page);
    for (const path of UNGUARDED_PAGES) {
      const response = await page.goto(path);
      const headers = response!.headers();
      // Served as the build's bytes: Next marks a prerendered page's response so.
      expect(headers["x-nextjs-prerender"] ?? headers["x-nextjs-cache"], path).toBeTruthy();
      const policy = scriptSrc(headers["content-security-policy"]);
      expect(policy, path).toMatch(/^script-src 'self'( 'sha256-[A-Za-z0-9+/]+=*')+$/);
      expect(policy).not.toContain("'unsafe-inline'");
      expect(policy).not.toContain("'nonce-");
      await expect(page.locator("h1")).toBeVisible();
      expectStill(await measure(), path);
    }
    // The scripts really ran: the form is hydrated (the theme is set, a typed field is kept).
    await page.goto("/login");
    await expect(page.locator("html")).toHaveAttribute("data-theme", /^(light|dark)$/);
    await page.getByLabel("Email").fill("someone@example.com");
    await page.getByRole("button", { name: "Let's Go!" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Invalid email or password" })).toBeVisible();
    expect((await measure()).violations).toEqual([]);
  });

  test("/login reads its query in the browser: the notice, the e-mail, where to go after signing in", async ({ page, request }) => {
    const measure = await instrument(page);
    const anonymousLoginPolicy = scriptSrc((await request.get("/login")).headers()["content-security-policy"]);
    expect(anonymousLoginPolicy).toMatch(/^script-src 'self'( 'sha256-[A-Za-z0-9+/]+=*')+$/);
    await page.goto(
      `/login?${new URLSearchParams({ message: "Email verified successfully! You can now log in.", email: complete.email, from: "/settings" })}`,
    );
    await expect(page.getByText("Email verified successfully! You can now log in.")).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue(complete.email);
    await expect(page).toHaveURL(/\/login\?from=%2Fsettings$/);
    await page.getByLabel("Password", { exact: true }).fill(complete.password);
    await page.getByRole("button", { name: "Let's Go!" }).click();
    await expect(page).toHaveURL(/\/settings$/);
    expect((await measure()).violations).toEqual([]);
    // Signed in, /login offers to sign out; the guard sees this visit (a session) and answers with
    // the same hash-based policy the build wrote for visitors without one.
    const signedIn = await page.goto("/login");
    expect(scriptSrc(signedIn!.headers()["content-security-policy"])).toBe(anonymousLoginPolicy);
    await expect(page.getByRole("link", { name: "Sign out" })).toBeVisible();
  });

  test("an invited partner's /register is still the invitation, rendered per request with a nonce", async ({ page }) => {
    const measure = await instrument(page);
    const response = await page.goto("/register?invite=not-a-real-invitation");
    expect(scriptSrc(response!.headers()["content-security-policy"])).toMatch(/'nonce-[^']+' .*'strict-dynamic'/);
    await expect(page.getByRole("heading", { name: "Create your account" })).toHaveCount(0);
    expect((await measure()).violations).toEqual([]);
  });

  test("signed-in pages keep their nonce and do not shift as they load", async ({ page, request }) => {
    const measure = await instrument(page);
    await signIn(page, complete);
    await expect(page).toHaveURL(/\/dashboard$/);
    for (const path of ["/dashboard", "/forum"]) {
      const response = await page.goto(path);
      expect(scriptSrc(response!.headers()["content-security-policy"]), path).toMatch(/'nonce-[^']+' .*'strict-dynamic'/);
      expectStill(await measure(), path);
    }

    const account = await verifiedAccount(request, "speed-onboarding");
    // Off the app first: a signed-in page whose cookie goes answers its next call's 401 by leaving
    // for /signout (lib/transport/client.ts), which would cut short the sign-in's own navigation.
    await page.goto("about:blank");
    await page.context().clearCookies();
    await signIn(page, account);
    await expect(page).toHaveURL(/\/onboarding$/);
    await page.goto("/onboarding");
    expectStill(await measure(), "/onboarding");
  });
});
