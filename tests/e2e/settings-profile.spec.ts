import { mkdir } from "node:fs/promises";
import type { APIRequestContext, Browser, Page, Route } from "@playwright/test";
import { expect, test } from "./test";
import sharp from "sharp";
import { axe, LAPTOP, NARROW, noHorizontalScroll } from "./checks";
import { completeCouple, csrfToken, uniqueEmail, watchCsp } from "./support";

/**
 * /settings, walked by one couple through the screens, checked by a second couple through what
 * it is shown: the privacy level, 'Show us in the directory', both profiles, the theme, the
 * partner invitation and unblocking. Couples are made through the API (register, verify, one
 * profile-completion call with their place in Lisbon).
 */

const LISBON = "geonames:2267057";
const SETTINGS_PAGES = [
  "/settings",
  "/settings/profile",
  "/settings/couple",
  "/settings/location",
  "/settings/appearance",
  "/settings/partner",
  "/settings/blocked",
];

type Couple = { page: Page; coupleId: string; coupleName: string };

async function couple(browser: Browser, request: APIRequestContext, first: string): Promise<Couple> {
  const coupleName = `${first} & ${Date.now().toString(36)}`;
  const { page, coupleId } = await completeCouple(browser, request, `settings-${first.toLowerCase()}`, {
    userData: { firstName: first },
    coupleData: { coupleName, bio: "We like long walks by the river.", placeId: LISBON },
  });
  return { page, coupleId, coupleName };
}

async function photo(dir: string, name: string, background: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = `${dir}/${name}`;
  await sharp({ create: { width: 1000, height: 800, channels: 3, background } })
    .jpeg()
    .toFile(path);
  return path;
}

async function pickPhoto(page: Page, label: string, file: string) {
  await page.getByRole("group", { name: label }).locator('input[type="file"]').setInputFiles(file);
  const dialog = page.getByRole("dialog", { name: "Crop Your Image" });
  await dialog.getByRole("button", { name: "Apply Crop" }).click();
  await expect(dialog).toBeHidden();
}

/** What the second couple is told about the first: its profile's location text, or the status when refused. */
async function seenBy(viewer: Couple, target: Couple): Promise<{ status: number; location?: string | null }> {
  const response = await viewer.page.request.get(`/api/couples/${target.coupleId}/full-profile`);
  if (!response.ok()) return { status: response.status() };
  return { status: response.status(), location: ((await response.json()) as { data: { location: string | null } }).data.location };
}

/** The couples the viewer finds near Porto (where the first couple moves in its settings). */
async function nearbyIds(viewer: Couple): Promise<string[]> {
  const response = await viewer.page.request.get("/api/locations/nearby?lat=41.15&lng=-8.61&radius=50&limit=50");
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { data: { locations: { entity_id: string }[] } }).data.locations.map((row) => row.entity_id);
}

test.describe.serial("settings", () => {
  let us: Couple;
  let them: Couple;
  let csp: string[];

  test.beforeAll(async ({ browser, request }) => {
    us = await couple(browser, request, "Alma");
    them = await couple(browser, request, "Bruno");
    csp = watchCsp(us.page);
  });

  test.afterAll(() => expect(csp).toEqual([]));

  test("the overview lists every section once, and the section nav sits beside each one", async () => {
    const { page } = us;
    await page.goto("/settings");
    await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
    // The overview is the list: no second list of the same sections beside it.
    await expect(page.getByRole("navigation", { name: "Settings" })).toHaveCount(0);
    const main = page.getByRole("main");
    for (const label of [
      "Your profile",
      "Couple profile",
      "Location and privacy",
      "Appearance",
      "Notifications",
      "Security",
      "Partner",
      "Blocked couples",
      "Your data",
    ]) {
      await expect(main.getByRole("link", { name: new RegExp(`^${label}`) })).toBeVisible();
    }
    await main.getByRole("link", { name: /^Location and privacy/ }).click();
    await expect(page).toHaveURL(/\/settings\/location$/);
    const nav = page.getByRole("navigation", { name: "Settings" });
    await expect(nav.getByRole("link", { name: "Location and privacy" })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "Security" })).toHaveAttribute("href", "/settings/security");
  });

  test("a changed privacy level changes what another couple sees, as the preview said", async () => {
    const { page } = us;
    await page.goto("/settings/location");
    await expect(page.getByRole("radio", { name: /^City Level/ })).toBeChecked();
    const preview = page.getByTestId("privacy-preview");
    await expect(preview).toHaveText("Others see: Lisbon, Portugal");
    expect(await seenBy(them, us)).toEqual({ status: 200, location: "Lisbon, Portugal" });

    await expect(page.getByTestId("privacy-point")).toHaveText("On the map and in distances: a point within 1 km of your place.");
    await page.getByRole("radio", { name: /^Region Level/ }).check();
    await expect(page.getByTestId("privacy-point")).toHaveText("On the map and in distances: a point within 80 km of your place.");
    await page.getByRole("radio", { name: /^Country Level/ }).check();
    await expect(preview).toHaveText("Others see: Portugal");
    await expect(page.getByTestId("privacy-point")).toHaveText("Not on the map, and no distance to you.");
    await page.getByRole("button", { name: "Save privacy level" }).click();
    await expect(page.getByText("Privacy level saved.")).toBeVisible();
    expect(await seenBy(them, us)).toEqual({ status: 200, location: "Portugal" });

    await page.getByRole("radio", { name: /^Hidden/ }).check();
    await expect(preview).toHaveText("Others see no location");
    await page.getByRole("button", { name: "Save privacy level" }).click();
    await expect(page.getByText("Privacy level saved.")).toBeVisible();
    expect(await seenBy(them, us)).toEqual({ status: 200, location: null });

    await page.reload();
    await expect(page.getByRole("radio", { name: /^Hidden/ })).toBeChecked();
    await page.getByRole("radio", { name: /^City Level/ }).check();
    await page.getByRole("button", { name: "Save privacy level" }).click();
    await expect(page.getByText("Privacy level saved.")).toBeVisible();
    expect(await seenBy(them, us)).toEqual({ status: 200, location: "Lisbon, Portugal" });
  });

  test("the place changes through the location search", async () => {
    const { page } = us;
    await page.goto("/settings/location");
    await page.getByRole("button", { name: "Change" }).click();
    const search = page.getByRole("combobox", { name: "Location" });
    await expect(search).toBeFocused();
    await search.fill("porto");
    await page.getByRole("option", { name: "Porto Portugal", exact: true }).click();
    await expect(page.getByText("Location saved.")).toBeVisible();
    await expect(page.getByTestId("privacy-preview")).toHaveText("Others see: Porto, Portugal");
    expect(await seenBy(them, us)).toEqual({ status: 200, location: "Porto, Portugal" });
    await page.reload();
    await expect(page.getByText("Porto, Portugal", { exact: true })).toBeVisible();
  });

  test("turning 'Show us in the directory' off hides the couple from others until it is on again", async () => {
    const { page } = us;
    await page.goto("/settings/location");
    const toggle = page.getByRole("switch", { name: "Show us in the directory" });
    await expect(toggle).toBeChecked();
    expect(await nearbyIds(them)).toContain(us.coupleId);
    // A call the network loses says so, and leaves the switch as it stands on the server, usable.
    const lose = (route: Route) => (route.request().method() === "POST" ? route.abort("connectionreset") : route.fallback());
    await page.route("**/settings/location", lose);
    await toggle.click();
    await expect(page.getByText("Network error")).toBeVisible();
    await expect(toggle).toBeChecked();
    await expect(toggle).toBeEnabled();
    await page.unroute("**/settings/location", lose);
    await toggle.uncheck();
    await expect(page.getByText("You are hidden from other couples.")).toBeVisible();
    expect(await seenBy(them, us)).toEqual({ status: 404 });
    expect(await nearbyIds(them)).not.toContain(us.coupleId);

    await page.reload();
    await expect(toggle).not.toBeChecked();
    await toggle.check();
    await expect(page.getByText("Other couples can find you again.")).toBeVisible();
    expect((await seenBy(them, us)).status).toBe(200);
  });

  test("'Your profile' saves names, occupation, interests and a cropped photo", async ({}, testInfo) => {
    const { page } = us;
    await page.goto("/settings/profile");
    await page.getByLabel("First name").fill("Almira");
    await page.getByLabel("Occupation").fill("Cartographer");
    const interests = page.getByRole("group", { name: "Interests" });
    const closed = interests.locator("details:not([open]) > summary");
    while ((await closed.count()) > 0) await closed.first().click();
    const boxes = interests.getByRole("checkbox");
    for (let index = 0; index < 5; index++) await boxes.nth(index).check();
    await pickPhoto(page, "Profile photo", await photo(testInfo.outputPath("photos"), "me.jpg", "#7f5539"));
    await page.getByRole("button", { name: "Save profile" }).click();
    await expect(page.getByText("Saved.")).toBeVisible();

    await page.reload();
    await expect(page.getByLabel("First name")).toHaveValue("Almira");
    await expect(page.getByLabel("Occupation")).toHaveValue("Cartographer");
    await expect(page.getByRole("img", { name: "Your current profile photo" })).toBeVisible();
    await expect(interests.getByText("5 of", { exact: false })).toBeVisible();
  });

  test("'Couple profile' saves name, bio, styles and photos with the onboarding rules", async ({}, testInfo) => {
    const { page } = us;
    await page.goto("/settings/couple");
    const bio = page.getByLabel(/bio/i);
    await bio.fill("Short");
    await page.getByRole("button", { name: "Save couple profile" }).click();
    await expect(page.getByText("Please share more about yourselves (at least 10 characters)")).toBeVisible();
    await expect(page.getByText("Please upload a main couple photo")).toBeVisible();

    await page.getByLabel("What should we call you two?").fill("Alma & Rio");
    await bio.fill("Two map lovers who never take the same road twice.");
    await page.getByRole("checkbox", { name: /Culture Curators/ }).check();
    const dir = testInfo.outputPath("photos");
    await pickPhoto(page, "Main couple photo", await photo(dir, "main.jpg", "#1d3557"));
    await page
      .getByRole("group", { name: "More couple photos (optional)" })
      .locator('input[type="file"]')
      .setInputFiles(await photo(dir, "extra.jpg", "#e76f51"));
    const dialog = page.getByRole("dialog", { name: "Crop Your Image" });
    await dialog.getByRole("button", { name: "Apply Crop" }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole("button", { name: "Save couple profile" }).click();
    await expect(page.getByText("Saved.")).toBeVisible();

    await page.reload();
    await expect(page.getByLabel("What should we call you two?")).toHaveValue("Alma & Rio");
    await expect(bio).toHaveValue("Two map lovers who never take the same road twice.");
    await expect(page.getByRole("checkbox", { name: /Culture Curators/ })).toBeChecked();
    await expect(page.getByRole("img", { name: "Your current main couple photo" })).toBeVisible();
    await expect(page.getByRole("img", { name: "Couple photo 1" })).toBeVisible();
    const seen = await them.page.request.get(`/api/couples/${us.coupleId}/full-profile`);
    expect(((await seen.json()) as { data: { coupleName: string } }).data.coupleName).toBe("Alma & Rio");

    // Two tabs open on the form: each saves only what was changed in it, not its older copy of the rest.
    const other = await page.context().newPage();
    await other.goto("/settings/couple");
    await page.getByLabel("What should we call you two?").fill("Alma & Rio Bravo");
    await page.getByRole("button", { name: "Save couple profile" }).click();
    await expect(page.getByText("Saved.")).toBeVisible();
    await other.getByLabel(/bio/i).fill("Two map lovers who take the long road, always together.");
    await other.getByRole("button", { name: "Save couple profile" }).click();
    await expect(other.getByText("Saved.")).toBeVisible();
    await other.close();
    await page.reload();
    await expect(page.getByLabel("What should we call you two?")).toHaveValue("Alma & Rio Bravo");
    await expect(bio).toHaveValue("Two map lovers who take the long road, always together.");
    await expect(page.getByRole("img", { name: "Couple photo 1" })).toBeVisible();

    // A new main photo alone is a change of its own; a save with nothing changed sends nothing.
    const mainBefore = await page.getByRole("img", { name: "Your current main couple photo" }).getAttribute("src");
    await pickPhoto(page, "Main couple photo", await photo(dir, "main-2.jpg", "#2a9d8f"));
    await page.getByRole("button", { name: "Save couple profile" }).click();
    await expect(page.getByText("Saved.")).toBeVisible();
    await expect(page.getByRole("img", { name: "Your current main couple photo" })).not.toHaveAttribute("src", mainBefore!);
    await page.getByRole("button", { name: "Save couple profile" }).click();
    await expect(page.getByText("Nothing to save: nothing has changed.")).toBeVisible();

    // Removing a saved photo takes its button away: focus goes on, here to the picker of new ones.
    await page.getByRole("button", { name: "Remove couple photo 1" }).click();
    await expect(page.getByRole("group", { name: "More couple photos (optional)" }).locator('input[type="file"]')).toBeFocused();
  });

  test("'Appearance' applies and remembers the theme, and the nav's toggle follows it", async () => {
    const { page } = us;
    await page.goto("/settings/appearance");
    await page.getByRole("radio", { name: "Dark" }).check();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await page.reload();
    await expect(page.getByRole("radio", { name: "Dark" })).toBeChecked();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await expect(page.getByRole("button", { name: "Switch to light mode" }).first()).toBeAttached();
    await page.getByRole("radio", { name: /^System/ }).check();
    await page.getByRole("radio", { name: "Light" }).check();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  });

  test("'Partner' shows the pending invitation with 'Resend' and 'Cancel'", async () => {
    const { page } = us;
    await page.goto("/settings/partner");
    await expect(page.getByRole("link", { name: "Invite your partner" })).toBeVisible();
    const email = uniqueEmail("settings-partner");
    const sent = await page.request.post("/api/auth/send-invitation", {
      headers: { "X-CSRF-Token": await csrfToken(page) },
      data: { partner_first_name: "Rio", partner_last_name: "Vale", partner_email: email },
    });
    expect(sent.ok()).toBe(true);
    await page.reload();
    await expect(page.getByRole("heading", { name: "Invitation pending" })).toBeVisible();
    await expect(page.getByText(email, { exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Resend" }).click();
    await expect(page.getByText(`We sent a new invitation to ${email}.`)).toBeVisible();
    await page.getByRole("button", { name: "Cancel", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Cancel the invitation?" });
    // A confirmation opens on the choice that changes nothing: Enter keeps the invitation.
    await expect(dialog.getByRole("button", { name: "Keep it" })).toBeFocused();
    await dialog.getByRole("button", { name: "Cancel invitation" }).click();
    await expect(page.getByText("Invitation cancelled. Its links no longer work.")).toBeVisible();
    await page.reload();
    await expect(page.getByRole("heading", { name: "No partner yet" })).toBeVisible();
  });

  test("'Blocked couples' lists a blocked couple and 'Unblock' lets them see each other again", async () => {
    const { page } = us;
    const blocked = await page.request.put(`/api/couples/${them.coupleId}/block`, { headers: { "X-CSRF-Token": await csrfToken(page) } });
    expect(blocked.ok()).toBe(true);
    expect(await nearbyIds(them)).not.toContain(us.coupleId);
    await page.goto("/settings/blocked");
    await page.getByRole("button", { name: `Unblock ${them.coupleName}` }).click();
    await expect(page.getByText(`${them.coupleName} is no longer blocked.`)).toBeVisible();
    await expect(page.getByText("You haven't blocked anyone.")).toBeVisible();
    await page.reload();
    await expect(page.getByText("You haven't blocked anyone.")).toBeVisible();
    expect(await nearbyIds(them)).toContain(us.coupleId);
  });
});

test("on a phone the overview is the list and a section links back to it", async ({ browser, request }) => {
  const phone = await couple(browser, request, "Cora");
  await phone.page.setViewportSize(NARROW);
  await phone.page.goto("/settings/appearance");
  await expect(phone.page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Security" })).toBeHidden();
  await phone.page.getByRole("link", { name: "All settings" }).click();
  await expect(phone.page).toHaveURL(/\/settings$/);
  await expect(phone.page.getByRole("main").getByRole("link", { name: /^Blocked couples/ })).toBeVisible();
  await noHorizontalScroll(phone.page);
});

test("every settings page at 360 px in both themes and at 1280 px dark: no sideways scroll, no axe violations", async ({
  browser,
  request,
}) => {
  // Twenty-one pages, each with an axe pass.
  test.setTimeout(240_000);
  const owner = await couple(browser, request, "Dora");
  const state = await owner.page.context().storageState();
  const runs = [
    [NARROW, "light"],
    [NARROW, "dark"],
    [LAPTOP, "dark"],
  ] as const;
  for (const [viewport, theme] of runs) {
    const context = await browser.newContext({ viewport, storageState: state, colorScheme: theme });
    await context.addInitScript((chosen) => window.localStorage.setItem("theme", chosen), theme);
    const page = await context.newPage();
    for (const path of SETTINGS_PAGES) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await noHorizontalScroll(page);
      await axe(page, `${path} at ${viewport.width} px, ${theme}`);
    }
    await context.close();
  }
});
