import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { completeCouple, csrfToken } from "./support";

/**
 * Live updates through the tab's one event stream (GET /api/stream), with the bell's poll blocked:
 * what changes on screen can only have come down the stream.
 */
const LISBON = "geonames:2267057";
const bell = (page: Page) => page.getByRole("button", { name: /^Notifications(, .+ unread)?$/ });

async function blockPoll(page: Page): Promise<void> {
  await page.context().route("**/api/notifications/unread-count", (route) => route.abort());
}

test("the bell rises when another couple replies and clears when read in another tab, fed by the stream alone", async ({
  browser,
  request,
}) => {
  const ana = await completeCouple(browser, request, "live-ana", {
    userData: { firstName: "Ana" },
    coupleData: { coupleName: "Ana & Rui", placeId: LISBON },
  });
  const leo = await completeCouple(browser, request, "live-leo", {
    userData: { firstName: "Leo" },
    coupleData: { coupleName: "Leo & Mia", placeId: LISBON },
  });
  await blockPoll(ana.page);
  const streams: string[] = [];
  ana.page.on("request", (sent) => {
    if (new URL(sent.url()).pathname === "/api/stream") streams.push(sent.url());
  });
  await ana.page.goto("/dashboard");
  await expect(bell(ana.page)).toHaveAccessibleName("Notifications");
  await expect.poll(() => streams.length).toBe(1);

  const created = await ana.page.request.post("/api/forum/posts", {
    headers: { "X-CSRF-Token": await csrfToken(ana.page) },
    data: { title: "Sunset spots?", body: "Where do you watch the sunset in Lisbon?", topic: "travel", scope: "global", photos: [] },
  });
  expect(created.status()).toBe(201);
  const postId = ((await created.json()) as { data: { id: string } }).data.id;
  const replied = await leo.page.request.post(`/api/forum/posts/${postId}/replies`, {
    headers: { "X-CSRF-Token": await csrfToken(leo.page) },
    data: { body: "Miradouro da Graça, every time." },
  });
  expect(replied.status()).toBe(201);
  await expect(bell(ana.page)).toHaveAccessibleName("Notifications, 1 unread");
  await expect(ana.page.getByTestId("unread-badge")).toHaveText("1");

  // Read in a second tab: the first tab's bell clears without a reload.
  const second = await ana.page.context().newPage();
  await second.goto("/notifications");
  await second.getByRole("button", { name: "Mark all as read" }).click();
  await expect(second.getByText("All notifications marked as read.")).toBeVisible();
  await expect(bell(ana.page)).toHaveAccessibleName("Notifications");
  await expect(ana.page.getByTestId("unread-badge")).toHaveCount(0);
  // One stream per tab, never one per component that shows live data.
  expect(streams).toHaveLength(1);
});
