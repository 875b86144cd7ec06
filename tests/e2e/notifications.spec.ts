import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { DEMO_INBOX, DEMO_PASSWORD, demoEmail } from "../../lib/demo/data";
import { inboxAsSeeded } from "./database";
import { signIn } from "./support";

/**
 * The seeded inbox of marisol@demo.couples.test (scripts/seed/main.ts): this is the only spec that reads
 * or changes it. Counts are read from the page rather than assumed.
 */
const marisol = { email: demoEmail(DEMO_INBOX.recipient), password: DEMO_PASSWORD };
const partnerJoined = DEMO_INBOX.notifications.find((n) => n.type === "partner_joined")!.title;
const total = DEMO_INBOX.notifications.length;

const bell = (page: Page) => page.getByRole("button", { name: /^Notifications(, .+ unread)?$/ });
const dropdown = (page: Page) => page.getByRole("region", { name: "Latest notifications" });

async function unreadOnBell(page: Page): Promise<number> {
  const label = await bell(page).getAttribute("aria-label");
  return Number(/, (\d+) unread$/.exec(label ?? "")?.[1] ?? 0);
}

async function signInAsMarisol(page: Page) {
  await signIn(page, marisol);
  await expect(page).toHaveURL(/\/dashboard$/);
}

test.describe("notifications", () => {
  test("the bell shows the unread count and the latest; opening one marks it read; the page pages and marks all read", async ({ page }) => {
    await inboxAsSeeded();
    await signInAsMarisol(page);
    await expect(bell(page)).toHaveAccessibleName(/^Notifications, \d+ unread$/);
    const before = await unreadOnBell(page);
    await expect(page.getByTestId("unread-badge")).toHaveText(String(before));

    await bell(page).click();
    await expect(bell(page)).toHaveAttribute("aria-expanded", "true");
    const latest = dropdown(page).getByRole("listitem");
    await expect(latest).toHaveCount(5);
    const item = dropdown(page).getByRole("link", { name: new RegExp(partnerJoined) });
    await expect(item).toContainText("New");
    // Thaddeus is Marisol's partner: the line under it names him as her partner, not as their own couple.
    await expect(item).toContainText("Your partner · 2 hours ago");
    await expect(item).not.toContainText("Marisol & Thaddeus · ");

    // A partner joining has no post: it opens the notifications page, read.
    await item.click();
    await expect(page).toHaveURL(/\/notifications$/);
    await expect(dropdown(page)).toBeHidden();
    await expect.poll(() => unreadOnBell(page)).toBe(before - 1);

    await page.getByRole("link", { name: "Two of Us, dashboard" }).click();
    // On the dashboard before the bell opens: a click on 'View All' while still on /notifications
    // would be a no-op the dashboard's arrival then overrides.
    await expect(page).toHaveURL(/\/dashboard$/);
    await bell(page).click();
    await dropdown(page).getByRole("link", { name: "View All Notifications" }).click();
    await expect(page).toHaveURL(/\/notifications$/);
    const list = page.getByRole("list", { name: "Notifications" }).getByRole("listitem");
    await expect(page.getByRole("heading", { name: "Notifications", level: 1 })).toBeVisible();
    await expect(list).toHaveCount(20);
    await expect(list.filter({ hasText: partnerJoined })).not.toContainText("New");
    await expect(page.getByText(`${total} notifications`)).toBeVisible();
    const pager = page.getByRole("navigation", { name: "Notification pages" });
    await expect(pager).toContainText("Page 1 of 2");

    await pager.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/\/notifications\?page=2$/);
    await expect(pager).toContainText("Page 2 of 2");
    await expect(list).toHaveCount(total - 20);
    await expect(list.filter({ hasText: partnerJoined })).toHaveCount(0);
    // 'Mark all as read' on a later page is bounded too: up to the list's newest as the page read it,
    // the first page's included (answered here without marking anything, so the walk goes on with
    // its unread ones).
    let markAll: { mark_all?: boolean; up_to?: string } | null = null;
    await page.route("**/api/notifications/read", async (route) => {
      markAll = route.request().postDataJSON() as typeof markAll;
      await route.fulfill({ json: { success: true, data: { marked_count: 0 } } });
    });
    await page.getByRole("button", { name: "Mark all as read" }).click();
    await expect(page.getByText("Everything was already read.")).toBeVisible();
    await page.unroute("**/api/notifications/read");
    expect(markAll).toEqual({ mark_all: true, up_to: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
    await pager.getByRole("link", { name: "Previous" }).click();
    await expect(pager).toContainText("Page 1 of 2");

    // One marked read: its button goes, and the keyboard stays on its entry.
    const unread = list.filter({ has: page.getByRole("button", { name: /^Mark as read/ }) }).first();
    const unreadTitle = await unread.getByRole("button", { name: /^Mark as read/ }).getAttribute("aria-label");
    await unread.getByRole("button", { name: /^Mark as read/ }).focus();
    await page.keyboard.press("Enter");
    const marked = list.filter({ hasNot: page.getByRole("button", { name: unreadTitle! }) }).and(page.locator(":focus"));
    await expect(marked).toHaveCount(1);
    await expect(marked).not.toContainText("New");

    await expect(page.getByRole("main").getByText("New", { exact: true }).first()).toBeVisible();
    await page.getByRole("button", { name: "Mark all as read" }).click();
    await expect(page.getByText("All notifications marked as read.")).toBeVisible();
    await expect(page.getByRole("main").getByText("New", { exact: true })).toHaveCount(0);
    await expect(bell(page)).toHaveAccessibleName("Notifications");
    await expect(page.getByTestId("unread-badge")).toHaveCount(0);

    // The bell's list agrees once reopened.
    await bell(page).click();
    await expect(dropdown(page).getByRole("link", { name: new RegExp(partnerJoined) })).not.toContainText("New");
  });

  test("the bell works from the keyboard: Enter opens, Tab reaches the items, Escape closes and returns focus; a click outside closes", async ({
    page,
  }) => {
    await signInAsMarisol(page);
    await bell(page).focus();
    await page.keyboard.press("Enter");
    await expect(dropdown(page)).toBeVisible();
    await expect(dropdown(page).getByRole("listitem").first()).toBeVisible();

    await page.keyboard.press("Tab");
    await expect(dropdown(page).getByRole("link").first()).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dropdown(page)).toBeHidden();
    await expect(bell(page)).toBeFocused();
    await expect(bell(page)).toHaveAttribute("aria-expanded", "false");

    await bell(page).click();
    await expect(dropdown(page)).toBeVisible();
    // The outside-click handler is armed 100 ms after opening: click until it closes.
    await expect(async () => {
      await page.locator("main").click({ position: { x: 5, y: 5 } });
      await expect(dropdown(page)).toBeHidden({ timeout: 500 });
    }).toPass();
  });

  test("'View All Notifications' stays where it is while the latest load, on a phone and wide; reopened, the bell shows its last list at once", async ({
    page,
  }) => {
    await signInAsMarisol(page);
    const footer = dropdown(page).getByRole("link", { name: "View All Notifications" });
    // While `holding`, the bell's list answers only when the test lets it: the loading state stays
    // put until then. A request the route meets after its release (it may show the loading line
    // before the route holds it) goes straight through.
    let holding = false;
    const held: (() => void)[] = [];
    const release = () => {
      holding = false;
      held.splice(0).forEach((answer) => answer());
    };
    await page.route(/\/api\/notifications\?limit=5&/, async (route) => {
      if (holding) await new Promise<void>((resolve) => held.push(resolve));
      // The page may have moved on meanwhile (a reload): nothing to answer then.
      await route.continue().catch(() => {});
    });
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ]) {
      await page.setViewportSize(viewport);
      holding = true;
      await page.reload();
      await bell(page).click();
      await expect(dropdown(page).getByRole("status")).toHaveText("Loading notifications...");
      const whileLoading = await footer.boundingBox();
      release();
      await expect(dropdown(page).getByRole("listitem")).toHaveCount(5);
      expect(Math.abs((await footer.boundingBox())!.y - whileLoading!.y), `the footer moved at ${viewport.width} px`).toBeLessThanOrEqual(
        2,
      );

      // Closed and opened again (its answer held back): the five it had, not a loading line.
      await bell(page).click();
      await expect(dropdown(page)).toBeHidden();
      holding = true;
      await bell(page).click();
      await expect(dropdown(page).getByRole("listitem")).toHaveCount(5);
      await expect(dropdown(page).getByRole("status")).toHaveCount(0);
      release();
    }
  });
});
