import { mkdir } from "node:fs/promises";
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./test";
import sharp from "sharp";
import { signIn, verifiedAccount, watchCsp } from "./support";

/** Real image files, as a user would pick them: a portrait JPEG, a square PNG and a square JPEG. */
async function makeImages(dir: string) {
  await mkdir(dir, { recursive: true });
  const file = async (name: string, width: number, height: number, background: string, format: "jpeg" | "png") => {
    const path = `${dir}/${name}`;
    await sharp({ create: { width, height, channels: 3, background } })
      .composite([
        {
          input: { create: { width: Math.round(width / 3), height: Math.round(height / 3), channels: 3, background: "#f4d35e" } },
          gravity: "northwest",
        },
      ])
      [format]()
      .toFile(path);
    return path;
  };
  return {
    portrait: await file("portrait.jpg", 900, 1200, "#336699", "jpeg"),
    square: await file("square.png", 1200, 1200, "#aa3366", "png"),
    squareJpeg: await file("square.jpg", 1200, 1200, "#2d6a4f", "jpeg"),
  };
}

const photoInput = (page: Page, label: string) => page.getByRole("group", { name: label }).locator('input[type="file"]');
const cropDialog = (page: Page) => page.getByRole("dialog", { name: "Crop Your Image" });

/** Crops the picked file as it opened (centred, 80% wide); the dialog stays open while more files wait. */
async function applyCrop(page: Page, finalSize: string, { more = false } = {}) {
  const dialog = cropDialog(page);
  await expect(dialog.getByText(`Drag to move, drag corners to resize. Final size: ${finalSize}px`)).toBeVisible();
  await expect(dialog.locator(".ReactCrop__crop-selection")).toBeVisible();
  await dialog.getByRole("button", { name: "Apply Crop" }).click();
  if (!more) await expect(dialog).toBeHidden();
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found).not.toBeNull();
  return found!;
}

/** Opens every collapsed interest category, so every box can be reached. */
async function openAllCategories(interests: Locator) {
  const closed = interests.locator("details:not([open]) > summary");
  while ((await closed.count()) > 0) await closed.first().click();
}

test.describe("onboarding", () => {
  test.describe.configure({ timeout: 180_000 });

  test("step 1: every check on an empty submit, crop by mouse and keys, location search, interest limits, a reload keeps the draft, then save", async ({
    page,
    request,
  }, testInfo) => {
    const violations = watchCsp(page);
    const images = await makeImages(testInfo.outputPath("images"));
    const workers: string[] = [];
    page.on("worker", (worker) => workers.push(worker.url()));

    const account = await verifiedAccount(request, "onboarding-step1");
    await signIn(page, account);
    await expect(page).toHaveURL(/\/onboarding$/);
    await expect(page.getByRole("heading", { level: 1, name: "Tell us about yourself" })).toBeVisible();
    await expect(page.getByText("step 1 of 2")).toBeVisible();

    // Without a confirmed location the step cannot be sent at all.
    const continueButton = page.getByRole("button", { name: "Continue Setup" });
    await expect(continueButton).toBeDisabled();

    // A typed place with no suggestion is confirmed, but it is not a place from the list.
    const location = page.getByRole("combobox", { name: "Location" });
    await location.fill("qqzzxq");
    await expect(page.getByText("No locations found. Try a different search term.")).toBeVisible();
    await page.getByRole("button", { name: "Use entered location" }).click();
    await expect(page.getByText("Tip: Select from suggestions for better location matching")).toBeVisible();
    await continueButton.click();
    for (const message of [
      "Please upload your profile photo",
      "Please select a location from the dropdown suggestions",
      "Occupation is required",
      "Please select at least 5 interests",
    ]) {
      await expect(page.getByText(message, { exact: true })).toBeVisible();
    }
    // Focus goes to the first problem: the photo.
    await expect(photoInput(page, "Profile photo")).toBeFocused();

    // Location from the suggestions.
    await page.getByRole("button", { name: "Change", exact: true }).click();
    await location.fill("lisb");
    await page.getByRole("option", { name: /^Lisbon\s*Portugal$/ }).click();
    await expect(page.getByText("Verified location selected")).toBeVisible();
    await expect(page.getByText("Please select a location from the dropdown suggestions")).toBeHidden();

    // Photo: crop by dragging the box, then by the arrow keys.
    await photoInput(page, "Profile photo").setInputFiles(images.portrait);
    const dialog = cropDialog(page);
    await expect(dialog.getByText("Drag to move, drag corners to resize. Final size: 400x400px")).toBeVisible();
    const selection = dialog.locator(".ReactCrop__crop-selection");
    await expect(selection).toBeFocused();
    const start = await box(selection);
    await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
    await page.mouse.down();
    await page.mouse.move(start.x + start.width / 2 - 20, start.y + start.height / 2 - 25, { steps: 5 });
    await page.mouse.up();
    const dragged = await box(selection);
    expect(dragged.x).toBeLessThan(start.x);
    expect(dragged.y).toBeLessThan(start.y);
    expect(Math.round(dragged.width)).toBe(Math.round(start.width));

    await selection.focus();
    await page.keyboard.press("Shift+ArrowRight");
    await page.keyboard.press("ArrowDown");
    const nudged = await box(selection);
    expect(nudged.x).toBeGreaterThan(dragged.x);
    expect(nudged.y).toBeGreaterThan(dragged.y);
    await dialog.getByRole("button", { name: "Apply Crop" }).click();
    await expect(dialog).toBeHidden();
    const preview = page.getByRole("img", { name: "Profile photo preview" });
    await expect(preview).toBeVisible();
    await expect(preview).toHaveJSProperty("naturalWidth", 400);
    await expect(page.getByText("portrait.jpg")).toBeVisible();

    await page.getByLabel("Occupation").fill("Marine biologist");

    // Interests missing alone: focus goes to their group, marked refused, which reads the error (not to a box or category).
    const interests = page.getByRole("group", { name: "Interests" });
    await continueButton.click();
    await expect(interests).toBeFocused();
    await expect(interests).toHaveAttribute("aria-invalid", "true");
    await expect(interests).toHaveAccessibleDescription(/Please select at least 5 interests/);

    // Interests: at 25 the others are disabled and a further pick is ignored.
    await openAllCategories(interests);
    const boxes = interests.getByRole("checkbox");
    expect(await boxes.count()).toBeGreaterThan(25);
    for (let index = 0; index < 4; index++) await boxes.nth(index).check();
    await expect(interests.getByText(/^4 of \d+ interests selected$/)).toBeVisible();
    for (let index = 4; index < 25; index++) await boxes.nth(index).check();
    await expect(interests.getByText(/^25 of \d+ interests selected$/)).toBeVisible();
    const twentySixth = boxes.nth(25);
    await expect(twentySixth).toHaveAttribute("aria-disabled", "true");
    // Marked disabled (aria-disabled keeps it focusable), so only a forced click reaches it.
    await twentySixth.click({ force: true });
    await expect(twentySixth).not.toBeChecked();
    await expect(interests.getByText(/^25 of \d+ interests selected$/)).toBeVisible();
    // Back down to six.
    for (let index = 24; index >= 6; index--) await boxes.nth(index).uncheck();
    await expect(interests.getByText(/^6 of \d+ interests selected$/)).toBeVisible();
    const picked = await Promise.all([0, 1, 2, 3, 4, 5].map((index) => boxes.nth(index).getAttribute("value")));

    // A reload keeps the draft: photo preview, typed text, picks and the chosen place.
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "Tell us about yourself" })).toBeVisible();
    await expect(page.getByRole("img", { name: "Profile photo preview" })).toBeVisible();
    await expect(page.getByText("portrait.jpg")).toBeVisible();
    await expect(page.getByLabel("Occupation")).toHaveValue("Marine biologist");
    await expect(page.getByText("Verified location selected")).toBeVisible();
    await expect(interests.getByText(/^6 of \d+ interests selected$/)).toBeVisible();
    for (const value of picked) await expect(interests.locator(`input[value="${value}"]`)).toBeChecked();

    // Save: the upload is held until its busy state and progress have been seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let sent = "";
    await page.route("**/api/onboarding/step1", async (route) => {
      sent = route.request().postDataBuffer()?.toString("latin1") ?? "";
      await held;
      await route.continue();
    });
    await continueButton.click();
    await expect(page.getByRole("button", { name: "Saving..." })).toBeDisabled();
    await expect(page.getByRole("progressbar", { name: "Saving your profile" })).toBeVisible();
    release();

    const stepTwo = page.getByRole("heading", { level: 1, name: "Create your couple profile" });
    await expect(stepTwo).toBeVisible();
    await expect(stepTwo).toBeFocused();
    await expect(page.getByText("step 2 of 2")).toBeVisible();
    // The photo went through the compression worker and up as the spec's user.jpg.
    expect(workers.some((url) => url.includes("/_next/static/"))).toBe(true);
    expect(sent).toContain('name="userImage"; filename="user.jpg"');
    expect(sent).toContain("Content-Type: image/jpeg");
    expect(sent).toContain('name="occupation"\r\n\r\nMarine biologist');
    expect(sent.match(/name="interests\[\]"/g)).toHaveLength(6);
    expect(sent).toContain('name="locationPlaceId"\r\n\r\ngeonames:');

    // Saved: the draft is gone, the server's copy prefills step 1 on the way back.
    await page.getByRole("button", { name: "← Back to Individual Profile" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Tell us about yourself" })).toBeFocused();
    await expect(page.getByRole("img", { name: "Your saved profile photo" })).toBeVisible();
    await expect(page.getByLabel("Occupation")).toHaveValue("Marine biologist");
    expect(violations).toEqual([]);
  });

  test("step 2: every check on an empty submit, photos, style limit, a reload keeps the draft; then the couple profile, and a returning user", async ({
    page,
    request,
  }, testInfo) => {
    const violations = watchCsp(page);
    const images = await makeImages(testInfo.outputPath("images"));
    const account = await verifiedAccount(request, "onboarding-step2");
    await signIn(page, account);
    await expect(page).toHaveURL(/\/onboarding$/);

    // Step 1, quickly: suggested place, photo, occupation, five interests.
    await page.getByRole("combobox", { name: "Location" }).fill("lisb");
    await page.getByRole("option", { name: /^Lisbon\s*Portugal$/ }).click();
    await expect(page.getByText("Verified location selected")).toBeVisible();
    await photoInput(page, "Profile photo").setInputFiles(images.portrait);
    await applyCrop(page, "400x400");
    await page.getByLabel("Occupation").fill("Architect");
    await openAllCategories(page.getByRole("group", { name: "Interests" }));
    for (const name of ["Travel", "Food & Dining", "Wine Tasting", "Home Entertaining", "Music"]) {
      await page.getByRole("checkbox", { name, exact: true }).check();
    }
    await page.getByRole("button", { name: "Continue Setup" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Create your couple profile" })).toBeFocused();

    const complete = page.getByRole("button", { name: "Complete Profile!" });
    await complete.click();
    for (const message of [
      "Please enter your couple name",
      "Please upload a main couple photo",
      "Please select at least one adventure style",
      "Please share more about yourselves (at least 10 characters)",
    ]) {
      await expect(page.getByText(message, { exact: true })).toBeVisible();
    }
    await expect(page.getByLabel("What should we call you two?")).toBeFocused();

    const coupleName = `Robin & Sam ${Date.now()}`;
    await page.getByLabel("What should we call you two?").fill(coupleName);
    await photoInput(page, "Main couple photo").setInputFiles(images.square);
    await applyCrop(page, "400x400");
    await expect(page.getByRole("img", { name: "Main couple photo preview" })).toBeVisible();

    // Two extra photos at once: each is cropped 4:3 in turn.
    await photoInput(page, "More couple photos (optional)").setInputFiles([images.squareJpeg, images.square]);
    await applyCrop(page, "600x450", { more: true });
    await expect(page.getByRole("img", { name: "Couple photo 1" })).toBeVisible();
    await applyCrop(page, "600x450");
    await expect(page.getByRole("img", { name: /^Couple photo \d$/ })).toHaveCount(2);
    await expect(page.getByRole("img", { name: "Couple photo 1" })).toHaveJSProperty("naturalWidth", 600);

    const styles = page.getByRole("group", { name: "Adventure styles" });
    for (const name of ["Global Adventurers", "Culture Curators", "Culinary Connoisseurs"]) {
      await styles.getByRole("checkbox", { name: new RegExp(`^${name}`) }).check();
    }
    const fourth = styles.getByRole("checkbox", { name: /^Career Climbers/ });
    await expect(fourth).toHaveAttribute("aria-disabled", "true");
    // The message answers a fourth pick, not reaching three.
    await expect(page.getByText("You can select up to 3 adventure styles")).toBeHidden();
    await fourth.click({ force: true });
    await expect(page.getByText("You can select up to 3 adventure styles")).toBeVisible();
    await expect(fourth).not.toBeChecked();

    const bio = "We chase sunsets, cook badly and love a long train ride.";
    await page.getByLabel("Bio", { exact: true }).fill(bio);
    await expect(page.getByText(`${bio.length}/1000 characters`)).toBeVisible();

    // A reload resumes on step 2 (step 1 is saved) with the couple's draft.
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "Create your couple profile" })).toBeVisible();
    await expect(page.getByLabel("What should we call you two?")).toHaveValue(coupleName);
    await expect(page.getByRole("img", { name: "Main couple photo preview" })).toBeVisible();
    await expect(page.getByRole("img", { name: /^Couple photo \d$/ })).toHaveCount(2);
    await expect(styles.getByRole("checkbox", { checked: true })).toHaveCount(3);
    await expect(page.getByLabel("Bio", { exact: true })).toHaveValue(bio);

    // The session refresh after the save fails: the user still moves on, never stuck on 'Completing Setup...'.
    await page.route("**/onboarding", (route) => (route.request().method() === "POST" ? route.abort() : route.continue()));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/onboarding/step2", async (route) => {
      await held;
      await route.continue();
    });
    await complete.click();
    await expect(page.getByRole("button", { name: "Completing Setup..." })).toBeDisabled();
    await expect(page.getByRole("progressbar", { name: "Saving your couple profile" })).toBeVisible();
    release();
    await expect(page).toHaveURL(/\/invite-partner$/);
    await page.unroute("**/onboarding");

    // Back on /onboarding (as a page behind the guard sends a stale session) nothing is left to set up; the
    // session refresh, held until the notice was seen, brings the flags up to date.
    let releaseRefresh!: () => void;
    const refreshHeld = new Promise<void>((resolve) => (releaseRefresh = resolve));
    await page.route("**/onboarding", async (route) => {
      if (route.request().method() === "POST") await refreshHeld;
      await route.continue();
    });
    await page.goto("/onboarding");
    await expect(page.getByText("Setup complete! Redirecting...")).toBeVisible();
    releaseRefresh();
    await expect(page).toHaveURL(/\/dashboard$/);

    // The couple is live: its profile shows the photos, styles, interests, place and the partner.
    await page.goto("/profile");
    await expect(page.getByRole("heading", { level: 1, name: coupleName })).toBeVisible();
    await expect(page.getByText("Beta Member")).toBeVisible();
    await expect(page.getByText("Lisbon, Portugal")).toBeVisible();
    await expect(page.getByText(bio)).toBeVisible();
    const main = page.getByRole("img", { name: `${coupleName}, main photo` });
    await expect(main).toHaveJSProperty("naturalWidth", 400);
    await expect(page.getByRole("img", { name: new RegExp(`^${coupleName}, photo \\d of 2$`) })).toHaveCount(2);
    await expect(page.getByRole("img", { name: `${coupleName}, photo 1 of 2` })).toHaveJSProperty("naturalWidth", 600);
    for (const style of ["Global Adventurers", "Culture Curators", "Culinary Connoisseurs"])
      await expect(page.getByText(style, { exact: true })).toBeVisible();
    // The couple's interests (the partner's card lists their own too).
    await expect(page.getByRole("region", { name: "Interests", exact: true }).getByText("Wine Tasting", { exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { level: 3, name: /^Robin/ })).toBeVisible();
    await expect(page.getByText("Architect")).toBeVisible();
    await expect(page.getByRole("img", { name: "Photo of Robin" })).toHaveJSProperty("naturalWidth", 400);

    // The same couple by its id; an id that names no couple is not found.
    const me = await page.request.get("/api/v2/auth/me");
    const { coupleId } = (await me.json()) as { coupleId: string };
    await page.goto(`/profile/${coupleId}`);
    await expect(page.getByRole("heading", { level: 1, name: coupleName })).toBeVisible();
    await page.goto("/profile/00000000-0000-4000-8000-000000000000");
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();

    expect(violations).toEqual([]);
  });
});
