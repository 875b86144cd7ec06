import { mkdir } from "node:fs/promises";
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./test";
import sharp from "sharp";
import { latestLink, PASSWORD, signIn, uniqueEmail, watchCsp } from "./support";

/**
 * The whole couple, through the screens only: partner A registers, verifies, onboards and
 * invites; partner B joins from the e-mailed link in a browser of their own, does step 1 and
 * lands on the dashboard; both see 'Verified Couple', and partner A is told the partner joined.
 */

async function photo(dir: string, name: string, background: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = `${dir}/${name}`;
  await sharp({ create: { width: 1000, height: 800, channels: 3, background } })
    .jpeg()
    .toFile(path);
  return path;
}

const photoInput = (page: Page, label: string) => page.getByRole("group", { name: label }).locator('input[type="file"]');

async function pickPhoto(page: Page, label: string, file: string) {
  await photoInput(page, label).setInputFiles(file);
  const dialog = page.getByRole("dialog", { name: "Crop Your Image" });
  await dialog.getByRole("button", { name: "Apply Crop" }).click();
  await expect(dialog).toBeHidden();
}

async function openAllCategories(interests: Locator) {
  const closed = interests.locator("details:not([open]) > summary");
  while ((await closed.count()) > 0) await closed.first().click();
}

/**
 * Step 1 as a person fills it in: a suggested place (partner B keeps the couple's, offered as
 * theirs), a cropped photo, an occupation, five interests.
 */
async function individualProfile(page: Page, file: string, occupation: string, { couplePlaceOffered = false } = {}) {
  await expect(page.getByRole("heading", { level: 1, name: "Tell us about yourself" })).toBeVisible();
  if (!couplePlaceOffered) {
    await page.getByRole("combobox", { name: "Location" }).fill("lisb");
    await page.getByRole("option", { name: /^Lisbon\s*Portugal$/ }).click();
  }
  await expect(page.getByText("Verified location selected")).toBeVisible();
  await pickPhoto(page, "Profile photo", file);
  await page.getByLabel("Occupation").fill(occupation);
  await openAllCategories(page.getByRole("group", { name: "Interests" }));
  for (const name of ["Travel", "Food & Dining", "Wine Tasting", "Music", "Reading"]) {
    await page.getByRole("checkbox", { name, exact: true }).check();
  }
  await page.getByRole("button", { name: "Continue Setup" }).click();
}

test("the whole couple: register, verify, onboard, invite; the partner joins; both see 'Verified Couple' and the bell says so", async ({
  page,
  browser,
  request,
}, testInfo) => {
  test.setTimeout(240_000);
  const dir = testInfo.outputPath("images");
  const images = {
    a: await photo(dir, "a.jpg", "#336699"),
    b: await photo(dir, "b.jpg", "#aa3366"),
    couple: await photo(dir, "couple.jpg", "#2d6a4f"),
  };
  const violations = watchCsp(page);

  // Partner A registers and verifies through the e-mailed link.
  const emailA = uniqueEmail("couple-a");
  await page.goto("/register");
  await page.getByLabel("First name").fill("Ines");
  await page.getByLabel("Last name").fill("Duarte");
  await page.getByLabel("Email").fill(emailA);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm password").fill(PASSWORD);
  await page.getByLabel("Date of birth").fill("1990-02-14");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByRole("heading", { name: "Check Your Email" })).toBeVisible();
  await page.goto(await latestLink(request, emailA, "/verify-email"));
  await expect(page.getByText("Email verified successfully! Redirecting to onboarding...")).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });
  await signIn(page, { email: emailA, password: PASSWORD });
  await expect(page).toHaveURL(/\/onboarding$/);

  // Onboarding: step 1, step 2, then the invitation screen.
  await individualProfile(page, images.a, "Urban planner");
  await expect(page.getByRole("heading", { level: 1, name: "Create your couple profile" })).toBeVisible();
  const coupleName = `Ines & Rui ${Date.now()}`;
  await page.getByLabel("What should we call you two?").fill(coupleName);
  await pickPhoto(page, "Main couple photo", images.couple);
  await page
    .getByRole("group", { name: "Adventure styles" })
    .getByRole("checkbox", { name: /^Global Adventurers/ })
    .check();
  await page.getByLabel("Bio", { exact: true }).fill("Tram rides, long lunches and every miradouro in town.");
  await page.getByRole("button", { name: "Complete Profile!" }).click();
  await expect(page).toHaveURL(/\/invite-partner$/);

  // Before partner B joins, the couple is a beta member.
  await page.goto("/profile");
  await expect(page.getByRole("heading", { level: 1, name: coupleName })).toBeVisible();
  await expect(page.getByText("Beta Member", { exact: true })).toBeVisible();

  const emailB = uniqueEmail("couple-b");
  await page.goto("/invite-partner");
  await page.getByLabel("Partner's first name").fill("Rui");
  await page.getByLabel("Partner's last name").fill("Costa");
  await page.getByLabel("Partner's email").fill(emailB);
  await page.getByRole("button", { name: "Send Invitation" }).click();
  await expect(page.getByRole("heading", { name: "They're In the Loop!" })).toBeVisible();
  await page.getByRole("button", { name: "Go to Dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const bell = page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName("Notifications");

  // Partner B, in a fresh browser, opens the e-mailed link and joins.
  const contextB = await browser.newContext();
  const pageB = await contextB.newPage();
  const violationsB = watchCsp(pageB);
  await pageB.goto(await latestLink(request, emailB, "/register"));
  await expect(pageB.getByRole("heading", { name: "Welcome, Rui!" })).toBeVisible();
  await expect(pageB.getByText("Ines has invited you to join", { exact: true })).toBeVisible();
  await pageB.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await pageB.getByLabel("Confirm Password").fill(PASSWORD);
  await pageB.getByLabel("Date of Birth").fill("1989-09-30");
  await pageB.getByRole("button", { name: "Join the Adventure!" }).click();
  await expect(pageB).toHaveURL(/\/onboarding$/);

  // Partner B does step 1 only (their progress says one step) and lands on the dashboard, welcomed to their couple.
  await expect(pageB.getByText("step 1 of 1")).toBeVisible();
  await individualProfile(pageB, images.b, "Sound engineer", { couplePlaceOffered: true });
  await expect(pageB).toHaveURL(/\/dashboard\?welcome=partner$/);
  await expect(pageB.getByRole("status").filter({ hasText: `Welcome to ${coupleName}!` })).toBeVisible();
  await pageB.goto("/profile");
  await expect(pageB.getByRole("heading", { level: 1, name: coupleName })).toBeVisible();
  await expect(pageB.getByText("Verified Couple", { exact: true })).toBeVisible();
  expect(violationsB).toEqual([]);
  await contextB.close();

  // Partner A: the couple is verified, and the bell has the news (polled, or on reload).
  await page.goto("/profile");
  await expect(page.getByText("Verified Couple", { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { level: 3, name: /^Rui/ })).toBeVisible();
  await expect(bell).toHaveAccessibleName("Notifications, 1 unread", { timeout: 15_000 });
  await bell.click();
  const item = page.getByRole("link", { name: /Rui joined your couple!/ });
  await expect(item).toBeVisible();
  await item.click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(bell).toHaveAccessibleName("Notifications");
  expect(violations).toEqual([]);
});
