import { expect, test } from "./test";
import { wholeTarget } from "./checks";
import { latestAdultBirthDate, latestLink, PASSWORD, signIn, uniqueEmail, watchCsp } from "./support";

test.describe("registration journey", () => {
  test("shows each validation error live, on change and on blur", async ({ page }) => {
    await page.goto("/register");
    // The way back to sign in, as every link under a sign-in card, is a whole 44 px target.
    await wholeTarget(page.getByRole("link", { name: "Sign in" }));
    const email = page.getByLabel("Email");
    await email.fill("not-an-email");
    await email.blur();
    await expect(page.getByText("Please enter a valid email address")).toBeVisible();

    const password = page.getByLabel("Password", { exact: true });
    await password.fill("abc");
    await expect(page.getByText("Password must be at least 8 characters")).toBeVisible();
    await expect(page.getByText("Password strength:")).toContainText("Too Short");
    await password.fill("abcdefgh");
    await expect(page.getByText("Password must contain at least one uppercase letter")).toBeVisible();
    await expect(page.getByText("Password strength:")).toContainText("Weak");
    await password.fill("Abcdefgh");
    await expect(page.getByText("Password must contain at least one number")).toBeVisible();
    await password.fill("Abcdefg1");
    await expect(page.getByText("Password must contain at least one special character")).toBeVisible();
    await password.fill("ABCDEFG1!");
    await expect(page.getByText("Password must contain at least one lowercase letter")).toBeVisible();
    await password.fill(PASSWORD);
    await expect(page.getByText("Password strength:")).toContainText("Strong");
    // 'Show password' reveals it and is then 'Hide password' (its name is what it shows), a whole 44 px target.
    const reveal = page.getByRole("button", { name: "Show password" }).first();
    await wholeTarget(reveal);
    await reveal.click();
    await expect(password).toHaveAttribute("type", "text");
    await page.getByRole("button", { name: "Hide password" }).click();
    await expect(password).toHaveAttribute("type", "password");

    await page.getByLabel("Confirm password").fill(`${PASSWORD}x`);
    await page.getByLabel("Confirm password").blur();
    await expect(page.getByText("Passwords do not match")).toBeVisible();

    const firstName = page.getByLabel("First name");
    await firstName.fill("x");
    await firstName.fill("");
    await firstName.blur();
    await expect(page.getByText("First name is required")).toBeVisible();
    await page.getByLabel("Last name").fill("y".repeat(51));
    await page.getByLabel("Last name").blur();
    await expect(page.getByText("Last name must be no more than 50 characters")).toBeVisible();

    const dob = page.getByLabel("Date of birth");
    // Today's, not the build's: the page is prerendered (a run across midnight UTC built it the day before).
    const today = new Date();
    await expect(dob).toHaveAttribute("max", latestAdultBirthDate());
    await dob.fill(`${today.getUTCFullYear() - 10}-01-01`);
    await dob.blur();
    await expect(page.getByText("You must be at least 18 years old")).toBeVisible();

    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("Please fill in all required fields correctly.")).toBeVisible();
    await expect(page).toHaveURL(/\/register$/);
  });

  test("register, be refused before verifying, verify from the e-mail, sign in, land on onboarding, sign out", async ({
    page,
    request,
    baseURL,
  }) => {
    const csp = watchCsp(page);
    const email = uniqueEmail("journey");
    await page.goto("/register");
    await page.getByLabel("First name").fill("Marisol");
    await page.getByLabel("Last name").fill("Okafor");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm password").fill(PASSWORD);
    await page.getByLabel("Date of birth").fill("1990-04-12");
    await page.getByRole("button", { name: "Create Account" }).click();

    await expect(page).toHaveURL(/\/verify-email\?/);
    await expect(page.getByRole("heading", { name: "Check Your Email" })).toBeVisible();
    await expect(page.getByText("Please check your email to verify your account.")).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();
    // The first e-mail was just sent: the resend button waits out its cooldown.
    await expect(page.getByRole("button", { name: /Resend available in \d+s/ })).toBeDisabled();

    // Registration signed nobody in: the guard sends a guarded page to sign-in.
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login\?from=%2Fdashboard$/);

    await signIn(page, { email, password: PASSWORD });
    await expect(
      page.getByText("Please verify your email address before logging in. Check your inbox for the verification link."),
    ).toBeVisible();

    const link = await latestLink(request, email, "/verify-email");
    // Absolute, on this deployment (APP_URL).
    expect(link.startsWith(`${baseURL}/verify-email?token=`)).toBe(true);
    await page.goto(link);
    await expect(page.getByText("Email verified successfully! Redirecting to onboarding...")).toBeVisible();
    await expect(page.getByRole("link", { name: "Start Your Adventure" })).toHaveAttribute("href", "/onboarding");
    await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });
    await expect(page.getByText("Email verified successfully! You can now log in.")).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue(email);

    // The same link is single-use.
    await page.goto(link);
    await expect(page.getByText("Your email is already verified!")).toBeVisible();

    await signIn(page, { email, password: PASSWORD });
    await expect(page).toHaveURL(/\/onboarding$/);
    await expect(page.getByRole("heading", { name: "Tell us about yourself" })).toBeVisible();

    await page.evaluate(() => {
      localStorage.setItem("user_id", "someone");
      sessionStorage.setItem("registration_flow_state", "{}");
    });
    await page.getByRole("link", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => [localStorage.getItem("user_id"), sessionStorage.length])).toEqual([null, 0]);
    await page.goto("/onboarding");
    await expect(page).toHaveURL(/\/login\?from=%2Fonboarding$/);
    expect(csp).toEqual([]);
  });

  test("says so when the e-mail already has an account", async ({ page, request }) => {
    const email = uniqueEmail("taken");
    await request.post("/api/auth/register", {
      headers: { "x-forwarded-for": "198.51.100.77" },
      data: { email, password: PASSWORD, firstName: "Sam", lastName: "Lee", dateOfBirth: "1988-01-01" },
    });
    await page.goto("/register");
    await page.getByLabel("First name").fill("Sam");
    await page.getByLabel("Last name").fill("Lee");
    await page.getByLabel("Email").fill(email.toUpperCase());
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm password").fill(PASSWORD);
    await page.getByLabel("Date of birth").fill("1988-01-01");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("An account with this email already exists. Please sign in instead.")).toBeVisible();
  });
});
