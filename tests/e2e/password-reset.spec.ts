import { expect, test } from "./test";
import { latestLink, signIn, uniqueEmail, verifiedAccount } from "./support";

test("forgot and reset the password, then sign in with the new one only", async ({ page, request }) => {
  const account = await verifiedAccount(request, "reset");
  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel("Email").fill(account.email);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.getByText("Password reset email sent! Check your inbox for the reset link.")).toBeVisible();

  const link = await latestLink(request, account.email, "/reset-password");
  // The developer's way in: the outbox page lists the e-mail with its link clickable.
  await page.goto(`/dev/outbox?to=${encodeURIComponent(account.email)}`);
  await expect(page.getByRole("heading", { name: "Reset your password" })).toBeVisible();
  await page.getByRole("link", { name: link }).click();
  await expect(page).toHaveURL(link);
  await page.getByLabel("New password", { exact: true }).fill("abc");
  await page.getByRole("button", { name: "Reset Password" }).click();
  await expect(page.getByText("Password must be at least 6 characters long.")).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill("brand-new-secret");
  await page.getByLabel("Confirm new password").fill("brand-new-secreT");
  await page.getByRole("button", { name: "Reset Password" }).click();
  await expect(page.getByText("Passwords do not match. Please try again.")).toBeVisible();
  await page.getByLabel("Confirm new password").fill("brand-new-secret");
  await page.getByRole("button", { name: "Reset Password" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("Password updated successfully. Please sign in with your new password.")).toBeVisible();

  await signIn(page, account);
  await expect(page.getByText("Invalid email or password. Please try again.")).toBeVisible();
  await signIn(page, { email: account.email, password: "brand-new-secret" });
  await expect(page).toHaveURL(/\/onboarding$/);

  // The link worked once; it does not work again.
  await page.goto(link);
  await page.getByLabel("New password", { exact: true }).fill("another-secret");
  await page.getByLabel("Confirm new password").fill("another-secret");
  await page.getByRole("button", { name: "Reset Password" }).click();
  await expect(page.getByText("This password reset link is invalid or has expired. Please request a new one.")).toBeVisible();
});

test("answers the same for an address with no account", async ({ page }) => {
  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill(uniqueEmail("nobody"));
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.getByText("Password reset email sent! Check your inbox for the reset link.")).toBeVisible();
});
