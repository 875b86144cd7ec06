import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { expect, test } from "./test";
import { axe, LAPTOP, noHorizontalScroll, PHONE, THEMES } from "./checks";
import { completeCouple, signIn } from "./support";
import { EVENT_MESSAGES } from "../../lib/events/rules";

/**
 * Discover, the dashboard and the events pages: couples made through the API (register, verify,
 * one profile-completion call with their place, styles and interests), then used through the
 * screens only. The seeded demo couple Marisol & Thaddeus may draft paid events.
 */

/**
 * Places of the offline gazetteer: Tartu, and Elva about 25 km away; far from the seeded couples
 * (Lisbon, London, Berlin, Paris, Barcelona, Madrid), so the dashboard's five nearest are ours.
 */
const HOME = "geonames:588335";
const NEAR = "geonames:592279";
const INTERESTS = ["sailing", "skiing", "theatre", "writing", "dance"];

type Couple = { page: Page; coupleName: string };

let made = 0;
/** A complete couple (partner A only, so partner B is still to be invited), signed in in its own browser context. */
async function couple(browser: Browser, request: APIRequestContext, first: string, placeId: string): Promise<Couple> {
  const coupleName = `${first} ${Date.now().toString(36)}${made++} & Sam`;
  const { page } = await completeCouple(browser, request, `discover-${first.toLowerCase()}`, {
    userData: { firstName: first, bio: "Hi there." },
    coupleData: { coupleName, coupleTypes: ["mindful_adventurers"], interests: INTERESTS, placeId },
  });
  return { page, coupleName };
}

test.describe.configure({ mode: "serial" });

let us: Couple;
let them: Couple;

test.beforeAll(async ({ browser, request }) => {
  us = await couple(browser, request, "Iris", HOME);
  them = await couple(browser, request, "Otto", NEAR);
});

test.afterAll(async () => {
  await us?.page.context().close();
  await them?.page.context().close();
});

test("the dashboard: completion percentage, the invite card without partner B, couples near you, suggestions", async () => {
  const { page } = us;
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { level: 1, name: `Welcome, ${us.coupleName}!` })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Profile 100% complete" })).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Profile completion" })).toHaveAttribute("value", "100");

  const partner = page.getByRole("region", { name: "Your partner" });
  await expect(partner.getByRole("link", { name: "Invite Your Partner" })).toHaveAttribute("href", "/invite-partner");

  const near = page.getByRole("region", { name: "Couples near you" });
  const neighbour = near.getByRole("listitem").filter({ hasText: them.coupleName });
  await expect(neighbour).toContainText(/Within (25|50) km/);
  await expect(near).not.toContainText(us.coupleName);
  // Faces before text: the couple's face, then its name.
  const face = (await neighbour.locator("img, [data-testid='face-placeholder']").boundingBox())!;
  const name = (await neighbour.getByRole("link", { name: them.coupleName }).boundingBox())!;
  expect(face.width).toBe(40);
  expect(face.x + face.width).toBeLessThanOrEqual(name.x);

  const suggested = page.getByRole("region", { name: "Suggested couples" });
  await expect(suggested.getByRole("link", { name: them.coupleName })).toBeVisible();
  await expect(page.getByRole("region", { name: "Recent notifications" })).toContainText("Nothing new yet");
});

test("on a phone, discover is faces first: the photo leads each card in the first screen, the name under it, the reason naming an interest", async ({}, testInfo) => {
  const { page } = us;
  for (const theme of THEMES) {
    await page.setViewportSize(PHONE);
    await page.evaluate((chosen) => window.localStorage.setItem("theme", chosen), theme);
    await page.goto("/discover");
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    // The first card, whoever it is: its photo (or the placeholder where none was added) spans the card, above the name.
    const first = page.getByRole("article").first();
    const card = (await first.boundingBox())!;
    const photo = (await first.locator("img, [data-testid='face-placeholder']").first().boundingBox())!;
    const name = (await first.getByRole("heading").boundingBox())!;
    expect(photo.width).toBeGreaterThanOrEqual(card.width - 2);
    expect(photo.y + photo.height).toBeLessThanOrEqual(name.y);
    expect(photo.y + photo.height).toBeLessThanOrEqual(PHONE.height);
    // Our neighbours' card names what the two couples share, in one chip.
    const reasons = page.getByRole("article", { name: them.coupleName }).getByRole("list", { name: "Why we suggest them" });
    await expect(reasons.getByRole("listitem").first()).toHaveText(/^Both couples like sailing, /);
    await expect(reasons.getByText(/interests in common|share \d+ interests/)).toHaveCount(0);
    await noHorizontalScroll(page);
    await axe(page);
    await page.screenshot({ path: testInfo.outputPath(`discover-phone-${theme}.png`) });
    await page.setViewportSize(LAPTOP);
    await page.reload();
    await noHorizontalScroll(page);
    await page.screenshot({ path: testInfo.outputPath(`discover-laptop-${theme}.png`) });
    await page.goto("/dashboard");
    await page.screenshot({ path: testInfo.outputPath(`dashboard-laptop-${theme}.png`) });
    await page.setViewportSize(PHONE);
    await page.reload();
    await page.screenshot({ path: testInfo.outputPath(`dashboard-phone-${theme}.png`), fullPage: true });
  }
});

test("discover says why, and 'Not for us' removes a suggestion (for good, after a reload)", async () => {
  const { page } = us;
  await page.goto("/discover");
  const card = page.getByRole("article", { name: them.coupleName });
  const reasons = card.getByRole("list", { name: "Why we suggest them" }).getByRole("listitem");
  await expect(reasons).toHaveText([
    "Both couples like sailing, skiing, theatre and 2 more",
    "Both Mindful Adventurers",
    /^Within (25|50) km$/,
  ]);
  await expect(card).not.toContainText("Hart");

  await card.getByRole("button", { name: `Not for us: hide ${them.coupleName} for 30 days` }).click();
  await expect(card).toHaveCount(0);
  await expect(
    page.getByRole("status").filter({ hasText: `${them.coupleName} is hidden from your suggestions for 30 days.` }),
  ).toBeAttached();
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Discover" })).toBeVisible();
  await expect(page.getByRole("article", { name: them.coupleName })).toHaveCount(0);
});

test("events: 'Notify us' is kept; a couple without the flag cannot open /events/create", async () => {
  const { page } = them;
  await page.goto("/events");
  await expect(page.getByRole("heading", { name: "IRL Events Coming Soon!" })).toBeVisible();
  await page.getByRole("button", { name: "Notify us when events launch" }).click();
  await expect(page.getByText("You're on the list")).toBeVisible();
  await page.reload();
  await expect(page.getByText("You're on the list")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Your drafts" })).toHaveCount(0);

  await page.goto("/events/create");
  await expect(page.getByRole("heading", { name: "Not available yet" })).toBeVisible();
  await expect(page.getByText("Creating paid events is not available for your couple yet.")).toBeVisible();
  await expect(page.getByLabel("Title")).toHaveCount(0);
});

test("a flagged couple drafts an event, listed under 'Your drafts'", async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, { email: "marisol@demo.couples.test", password: "Couples2026!" });
  await expect(page).toHaveURL(/\/dashboard/);
  await page.goto("/events");
  await page.getByRole("link", { name: "Create an event" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Create an Event" })).toBeVisible();

  const title = `Rooftop tasting ${Date.now()}`;
  await page.getByLabel("Title").fill(title);
  const start = new Date(Date.now() + 14 * 86_400_000);
  const local = new Date(start.getTime() - start.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  await page.getByLabel("Date and time").fill(local);
  const place = page.getByRole("combobox", { name: "Place" });
  // A place typed by hand is refused here: the button goes, focus moves to the field, which reads the error.
  await place.fill("qqzzxq");
  await page.getByRole("button", { name: "Use entered location" }).click();
  await expect(place).toBeFocused();
  await expect(place).toHaveAttribute("aria-invalid", "true");
  await expect(place).toHaveAccessibleDescription(new RegExp(EVENT_MESSAGES.placeRequired));
  await place.fill("Lisbon");
  await page.getByRole("listbox", { name: "Select Location" }).getByRole("option").first().click();
  await expect(page.getByText(/Chosen: .*Lisbon/)).toBeVisible();
  await page.getByLabel("Capacity (couples)").fill("10");
  await page.getByLabel("Price per couple").fill("25");
  await page.getByLabel("Description").fill("Four wines from the Douro valley, on a rooftop in Alfama.");
  await page.getByRole("button", { name: "Save draft" }).click();

  await expect(page).toHaveURL(/\/events\?drafted=1$/);
  const drafts = page.getByRole("region", { name: "Your drafts" });
  const draft = drafts.getByRole("listitem").filter({ hasText: title });
  await expect(draft).toContainText("Lisbon");
  await expect(draft).toContainText("€25.00");
  await expect(draft).toContainText("10 couples");
  await page.context().close();
});
