import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { NARROW, noHorizontalScroll, PHONE } from "./checks";
import { completeCouple, csrfToken } from "./support";

/**
 * Fifty-character names (one word, the hardest case) and a long e-mail address: every page
 * touched here wraps or truncates them at 360 px, never scrolls sideways; notification rows keep
 * their text the width of the row on a phone, 'Mark as read' under it.
 */

const LISBON = "geonames:2267057";
const letters = (n: number) => Date.now().toString(36).replace(/\d/g, "q").padEnd(n, "abcdefghij").slice(0, n);

async function fits(page: Page, paths: string[]) {
  for (const path of paths) {
    await page.goto(path);
    await noHorizontalScroll(page);
  }
}

test("fifty-character names and a long address at 360 px: no sideways scroll; notification rows on a phone", async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const longName = `W${letters(49)}`;
  const long = await completeCouple(browser, request, "long-name", {
    userData: { firstName: `F${letters(49)}` },
    coupleData: { coupleName: longName, placeId: LISBON },
  });
  const other = await completeCouple(browser, request, "long-reader", {
    coupleData: { coupleName: `Ro ${letters(6)} & Jo`, placeId: LISBON },
  });

  // The long-named couple posts locally; the other couple's post gets its reaction (a notification naming it).
  const headers = { "X-CSRF-Token": await csrfToken(long.page) };
  const post = await long.page.request.post("/api/forum/posts", {
    headers,
    data: { title: `T${letters(149)}`, body: `B${letters(300)}`, topic: "travel", scope: "local" },
  });
  expect(post.ok()).toBe(true);
  const postId = ((await post.json()) as { data: { id: string } }).data.id;
  const theirs = await other.page.request.post("/api/forum/posts", {
    headers: { "X-CSRF-Token": await csrfToken(other.page) },
    data: { title: "Sunset walks this week?", body: "Anyone up for Monsanto?", topic: "outdoors", scope: "local" },
  });
  const theirId = ((await theirs.json()) as { data: { id: string } }).data.id;
  expect((await long.page.request.put(`/api/forum/posts/${theirId}/reactions/heart`, { headers })).ok()).toBe(true);

  for (const page of [long.page, other.page]) await page.setViewportSize(NARROW);
  await fits(long.page, [
    "/dashboard",
    "/profile",
    "/forum/local",
    `/forum/post/${postId}`,
    "/notifications",
    "/settings",
    "/settings/blocked",
    "/events",
    "/discover",
  ]);
  await fits(other.page, [`/profile/${long.coupleId}`, `/forum/post/${postId}`, "/forum/local", "/notifications"]);

  const visitor = await (await browser.newContext({ viewport: NARROW })).newPage();
  await fits(visitor, [
    `/verify-email?email=${encodeURIComponent(`a.very.long.address.${letters(40)}@example-long-domain.com`)}`,
    "/register",
    "/terms",
    "/privacy",
    "/guidelines",
  ]);

  // A notification row on a phone: its text as wide as the row, 'Mark as read' a 44 px target under it.
  await other.page.setViewportSize(PHONE);
  await other.page.goto("/notifications");
  // The newest notification: the long-named couple's reaction.
  const row = other.page.getByRole("list", { name: "Notifications" }).getByRole("listitem").first();
  await expect(row).toContainText(longName);
  const mark = row.getByRole("button", { name: /^Mark as read/ });
  const [rowBox, markBox, textBox] = [
    await row.boundingBox(),
    await mark.boundingBox(),
    await row.locator("a, span").first().boundingBox(),
  ];
  expect(markBox!.height).toBeGreaterThanOrEqual(44);
  expect(markBox!.y).toBeGreaterThanOrEqual(textBox!.y + textBox!.height - 1);
  expect(textBox!.width).toBeGreaterThan(rowBox!.width * 0.75);
});
