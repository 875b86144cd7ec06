import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { signIn, verifiedAccount } from "./support";

/** Onboarding step 1 for a fresh verified account: the location field shows its search input. */
async function onStep1(page: Page, request: Parameters<typeof verifiedAccount>[0], label: string) {
  const account = await verifiedAccount(request, label);
  await signIn(page, account);
  await expect(page).toHaveURL(/\/onboarding$/);
  const input = page.getByRole("combobox", { name: "Location" });
  await expect(input).toBeVisible();
  await expect(input).toHaveAttribute("placeholder", "Search for a location...");
  return input;
}

const SEARCH = "**/api/locations/search/public?*";
const savedLocationKeys = (page: Page) =>
  page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith("onboardingLocation:")));

test.describe("location autocomplete", () => {
  test("chooses a suggestion by keyboard, confirms it on the server, keeps it over a reload and lets it change", async ({
    page,
    request,
  }) => {
    const input = await onStep1(page, request, "location-keyboard");
    await input.fill("l");
    await expect(page.getByRole("listbox", { name: "Select Location" })).toBeHidden();

    await input.fill("Lisbon");
    const list = page.getByRole("listbox", { name: "Select Location" });
    await expect(list).toBeVisible();
    await expect(input).toHaveAttribute("aria-expanded", "true");
    const first = list.getByRole("option").first();
    await expect(first).toContainText("Lisbon");
    await expect(first).toContainText("Portugal");
    expect(await list.getByRole("option").count()).toBeLessThanOrEqual(5);

    await input.press("ArrowDown");
    await expect(first).toHaveAttribute("aria-selected", "true");
    await expect(input).toHaveAttribute("aria-activedescendant", (await first.getAttribute("id"))!);
    await input.press("Escape");
    await expect(list).toBeHidden();
    await expect(input).toHaveAttribute("aria-expanded", "false");

    // Up from nothing highlighted starts at the last suggestion, down wraps to the first.
    await input.press("ArrowUp");
    await expect(list).toBeVisible();
    await expect(list.getByRole("option").last()).toHaveAttribute("aria-selected", "true");
    await input.press("ArrowDown");
    await expect(first).toHaveAttribute("aria-selected", "true");
    const normalizing = page.waitForRequest("**/api/locations/normalize");
    await input.press("Enter");
    // No privacy level is sent: the one the user chose (city for a first place) stays.
    expect((await normalizing).postDataJSON()).not.toHaveProperty("privacy_level");
    await expect(page.getByText("Verified location selected")).toBeVisible();
    await expect(page.getByText("City Level", { exact: true })).toBeVisible();
    await expect(page.getByText("Lisbon, Portugal", { exact: true })).toBeVisible();
    const change = page.getByRole("button", { name: "Change" });
    await expect(change).toBeFocused();
    expect(await savedLocationKeys(page)).toHaveLength(1);

    await page.reload();
    await expect(page.getByText("Verified location selected")).toBeVisible();

    await page.getByRole("button", { name: "Change" }).click();
    await expect(input).toBeFocused();
    await expect(input).toHaveValue("");
    expect(await savedLocationKeys(page)).toEqual([]);
  });

  test("offers the typed text when nothing is found, without calling it verified", async ({ page, request }) => {
    const input = await onStep1(page, request, "location-empty");
    await input.fill("Qxzqxzq Vvvq");
    await expect(page.getByText("No locations found. Try a different search term.")).toBeVisible();
    await page.getByRole("button", { name: "Use entered location" }).click();
    await expect(page.getByText("Qxzqxzq Vvvq")).toBeVisible();
    await expect(page.getByText("Verified location selected")).toBeHidden();
    await expect(page.getByRole("button", { name: "Change" })).toBeFocused();
    // A typed location is not a chosen place: nothing is kept for a reload.
    expect(await savedLocationKeys(page)).toEqual([]);
  });

  test("when search fails: the spec's texts, typing it by hand, trying again, and earlier answers from the cache", async ({
    page,
    request,
  }) => {
    const input = await onStep1(page, request, "location-offline");
    await page.route(SEARCH, (route) => route.abort("internetdisconnected"));
    await input.fill("Porto");
    await expect(
      page.getByRole("alert").filter({ hasText: "Unable to search locations. Please check your internet connection." }),
    ).toBeVisible();
    await expect(page.getByText("Location search is currently unavailable.")).toBeVisible();
    await expect(page.getByText("You can update your location later in settings.")).toBeVisible();
    await expect(page.getByRole("button", { name: 'Continue with "Porto"' })).toBeVisible();

    await page.unroute(SEARCH);
    await page.route(SEARCH, (route) => route.fulfill({ status: 503, json: { error: { code: "INTERNAL", message: "down" } } }));
    await page.getByRole("button", { name: "Try searching again" }).click();
    await expect(
      page.getByText("Unable to search locations. The service is temporarily unavailable. Please try again later."),
    ).toBeVisible();
    await expect(input).toBeFocused();

    await page.unroute(SEARCH);
    await page.getByRole("button", { name: "Try searching again" }).click();
    await expect(page.getByRole("option").first()).toContainText("Porto");
    await expect(page.getByRole("alert").filter({ hasText: "Unable to search locations." })).toHaveCount(0);

    // "Porto" is cached now: a failing search for text that starts alike still offers it.
    await page.route(SEARCH, (route) => route.abort("internetdisconnected"));
    // Emptied first, so no earlier list is still on screen.
    await input.fill("");
    await expect(page.getByRole("option")).toHaveCount(0);
    await input.fill("Port");
    await expect(page.getByRole("option").first()).toContainText("Porto");
    await expect(page.getByText("Location search is currently unavailable.")).toBeHidden();

    await input.fill("Qxzqxzq");
    await page.getByRole("button", { name: 'Continue with "Qxzqxzq"' }).click();
    await expect(page.getByText("Qxzqxzq")).toBeVisible();
    await expect(page.getByText("Verified location selected")).toBeHidden();
  });

  test("says when the chosen place could not be saved, keeping the typed text, and asks again when the server refuses it", async ({
    page,
    request,
  }) => {
    const input = await onStep1(page, request, "location-normalize");
    await page.route("**/api/locations/normalize", (route) =>
      route.fulfill({ status: 502, json: { error: { code: "PLACES_SERVICE_FAILED", message: "down" } } }),
    );
    await input.fill("Lisbon");
    await page.getByRole("option").first().click();
    await expect(page.getByRole("alert").filter({ hasText: "Failed to save location. Please try again." })).toBeVisible();
    await expect(input).toHaveValue("Lisbon");
    await expect(input).toBeFocused();
    await expect(page.getByText("Verified location selected")).toBeHidden();
    expect(await savedLocationKeys(page)).toEqual([]);

    // The network fails too: the same message; then, with the server back, the same suggestion is saved.
    await page.unroute("**/api/locations/normalize");
    await page.route("**/api/locations/normalize", (route) => route.abort("internetdisconnected"));
    await input.press("ArrowDown");
    await input.press("Enter");
    await expect(page.getByRole("alert").filter({ hasText: "Failed to save location. Please try again." })).toBeVisible();
    await expect(input).toHaveValue("Lisbon");
    await page.unroute("**/api/locations/normalize");
    await input.press("ArrowDown");
    await input.press("Enter");
    await expect(page.getByText("Verified location selected")).toBeVisible();
    await expect(page.getByRole("alert").filter({ hasText: "Failed to save location." })).toHaveCount(0);
    expect(await savedLocationKeys(page)).toHaveLength(1);

    await page.getByRole("button", { name: "Change" }).click();
    await page.route("**/api/locations/normalize", (route) =>
      route.fulfill({
        status: 400,
        json: { error: { code: "INVALID_LOCATION_DATA", message: "The location data is invalid. Please select your location again." } },
      }),
    );
    await input.fill("Lisbon");
    await page.getByRole("option").first().click();
    await expect(
      page.getByRole("alert").filter({ hasText: "The location data is invalid. Please select your location again." }),
    ).toBeVisible();
    await expect(input).toBeFocused();
    expect(await savedLocationKeys(page)).toEqual([]);
  });
});
