import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { axe, noHorizontalScroll, PHONE, LAPTOP, THEMES, wholeTarget } from "./checks";
import { completeCouple, csrfToken } from "./support";

/**
 * The forum on a phone and by touch: the controls fold so the first post is in the first screen;
 * a count lists who reacted in a sheet, with no tooltip left over the text; a reply without
 * reactions offers one 'React' button; a mention is picked by a name holding digits and spaces.
 */

const LISBON = "geonames:2267057";

/** A letters-only tag, unique per run. */
const tag = () =>
  Date.now()
    .toString(36)
    .replace(/\d/g, (digit) => "abcdefghij"[Number(digit)]!);

async function firstPost(page: Page): Promise<string> {
  await page.goto("/forum");
  return (await page.locator('a[href^="/forum/post/"]').first().getAttribute("href"))!;
}

for (const theme of THEMES) {
  test(`forum on a phone, ${theme} theme: first post in the first screen, the controls one tap away; all of them on a laptop`, async ({
    browser,
    request,
  }) => {
    const { page } = await completeCouple(browser, request, `fold-${theme}`, {
      coupleData: { coupleName: `Fold ${tag()} & Co`, placeId: LISBON },
    });
    await page.emulateMedia({ colorScheme: theme });
    await page.evaluate((chosen) => window.localStorage.setItem("theme", chosen), theme);
    await page.setViewportSize(PHONE);
    // The local forum has the most controls (order, topic, distance, search).
    await page.goto("/forum/local");
    const card = page.locator("li", { has: page.locator('a[href^="/forum/post/"]') }).first();
    const box = (await card.boundingBox())!;
    const tabBar = (await page.getByRole("navigation", { name: "Sections" }).boundingBox())!;
    expect(box.y + box.height, "the first post ends above the tab bar").toBeLessThanOrEqual(tabBar.y);
    // Its title is its way in: a whole 44 px target, however short.
    await wholeTarget(card.locator('a[href^="/forum/post/"]'));
    await expect(page.getByLabel("Topic")).toBeHidden();
    await page.getByText("Sort and filter").click();
    await expect(page.getByLabel("Topic")).toBeVisible();
    await expect(page.getByLabel("Distance")).toBeVisible();
    await expect(page.getByRole("link", { name: "Latest" })).toBeVisible();
    await noHorizontalScroll(page);
    await axe(page);

    await page.setViewportSize(LAPTOP);
    await page.goto("/forum/local");
    await expect(page.getByText("Sort and filter")).toBeHidden();
    await expect(page.getByRole("link", { name: "Nearest" })).toBeVisible();
    await expect(page.getByLabel("Topic")).toBeVisible();
    await expect(page.getByLabel("Distance")).toBeVisible();
    await axe(page);
  });
}

test("by touch: the count lists who reacted in a sheet and no tooltip stays; a reply without reactions has one 'React' button; a mention by digits and spaces", async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const name = `Ada${tag()}3z1w & Co`;
  await completeCouple(browser, request, "mentioned", { coupleData: { coupleName: name, placeId: LISBON } });
  // This try's couple names its reply and its clap: a retry meets the failed try's on the same first post.
  const toucher = `Kit ${tag()} & Sam`;
  const { page } = await completeCouple(browser, request, "toucher", {
    userData: { firstName: "Kit" },
    coupleData: { coupleName: toucher, placeId: LISBON },
  });
  const touch = await (
    await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true, storageState: await page.context().storageState() })
  ).newPage();
  const thread = await firstPost(touch);
  const postId = thread.split("/").at(-1)!;
  const reacted = await touch.request.put(`/api/forum/posts/${postId}/reactions/clap`, {
    headers: { "X-CSRF-Token": await csrfToken(touch) },
  });
  expect(reacted.ok()).toBe(true);
  await touch.goto(thread);
  await wholeTarget(touch.getByRole("link", { name: /^← Back to the (Global|Local) Forum$/ }));

  // The reply field keeps its suggestions through digits and a space.
  const reply = touch.getByRole("textbox", { name: "Write a reply" });
  await reply.pressSequentially(`Hello @${name.split(" ")[0]} &`);
  const option = touch.getByRole("option", { name });
  await expect(option).toBeVisible();
  await option.tap();
  await expect(reply).toHaveValue(`Hello @${name} `);
  await reply.pressSequentially("welcome!");
  await touch.getByRole("button", { name: "Reply", exact: true }).tap();
  const mine = touch.locator('[id^="reply-"]').filter({ hasText: toucher }).filter({ hasText: "welcome!" });
  await expect(mine.getByRole("link", { name: `@${name}` })).toBeVisible();

  // No reactions yet: one 'React' button, no '0' counts; it opens the five.
  const myReactions = mine.getByRole("group", { name: "Reactions" });
  await expect(myReactions.getByRole("button")).toHaveCount(1);
  await expect(myReactions).not.toContainText("0");
  await myReactions.getByRole("button", { name: "React", exact: true }).tap();
  await expect(myReactions.getByRole("button", { name: /^React with / })).toHaveCount(5);

  // The post's clap count, tapped: who reacted in a sheet; the tooltip stays hidden.
  const postReactions = touch.getByRole("group", { name: "Reactions" }).first();
  await postReactions.getByRole("button", { name: /clap: who reacted/ }).tap();
  const sheet = touch.getByRole("dialog", { name: /reaction/ });
  await expect(sheet.getByRole("listitem").filter({ hasText: `Kit of ${toucher}` })).toBeVisible();
  const sheetBox = (await sheet.boundingBox())!;
  expect(Math.round(sheetBox.y + sheetBox.height)).toBeGreaterThanOrEqual(PHONE.height - 1);
  await axe(touch);
  await sheet.getByRole("button", { name: "Close" }).tap();
  await expect(sheet).toBeHidden();
  await expect(postReactions.locator('[role="tooltip"]').filter({ visible: true })).toHaveCount(0);
  // A tap on an emoji reacts and leaves no tooltip over the text either.
  await postReactions.getByRole("button", { name: "React with hug" }).tap();
  await expect(postReactions.getByRole("button", { name: "React with hug" })).toHaveAttribute("aria-pressed", "true");
  await expect(postReactions.locator('[role="tooltip"]').filter({ visible: true })).toHaveCount(0);
});
