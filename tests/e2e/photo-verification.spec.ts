import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import sharp from "sharp";
import { axe, LAPTOP, noHorizontalScroll, PHONE, THEMES } from "./checks";
import { runDatabase } from "./database";
import { newCouple } from "./support";

/**
 * Photo verification with three browser contexts, each a couple of its own: a partner sends a
 * selfie from a file at phone size, a moderator approves it at laptop size, and another couple
 * sees 'Photo verified' on the card and the profile and filters the directory by it. Axe on the
 * new screens in both themes.
 */
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

/** The moderator's role, granted where only an operator could (the run's database). */
const grantModerator = (coupleName: string) =>
  runDatabase(
    (db) => db`update users set role = 'moderator' where id = (select partner1_id from couples where couple_name = ${coupleName})`,
  );

async function checkedInBothThemes(page: Page) {
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    await axe(page);
  }
  await noHorizontalScroll(page);
}

test("a partner verifies their photo with a selfie, a moderator approves it, another couple sees and filters by 'Photo verified'", async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const partner = await newCouple(browser, request, "Vera", PHONE);
  const moderator = await newCouple(browser, request, "Mona", LAPTOP);
  const other = await newCouple(browser, request, "Otto", PHONE);

  // The partner: Settings › Photo verification, a pose, a selfie from a file, cropped, sent.
  await partner.page.goto("/settings/verification");
  await expect(partner.page.getByRole("heading", { level: 1, name: "Photo verification" })).toBeVisible();
  await expect(partner.page.getByText("Not started")).toBeVisible();
  const pose = (await partner.page.getByTestId("pose").textContent())!;
  await checkedInBothThemes(partner.page);
  const selfie = await sharp({ create: { width: 900, height: 1200, channels: 3, background: "#a0522d" } })
    .jpeg()
    .toBuffer();
  await partner.page.locator('input[type="file"]').setInputFiles({ name: "selfie.jpg", mimeType: "image/jpeg", buffer: selfie });
  const crop = partner.page.getByRole("dialog", { name: "Crop Your Image" });
  await crop.getByRole("button", { name: "Apply Crop" }).click();
  await expect(crop).toBeHidden();
  await expect(partner.page.getByRole("img", { name: "Your selfie, ready to send" })).toBeVisible();
  await partner.page.getByRole("button", { name: "Send for review" }).click();
  await expect(partner.page.getByText(/^Waiting for a moderator/)).toBeVisible();
  await checkedInBothThemes(partner.page);

  // The moderator: the queue, the selfie beside the couple's photos, the pose asked, approve.
  await grantModerator(moderator.coupleName);
  await moderator.page.goto("/moderation/verifications");
  const item = moderator.page.getByRole("listitem").filter({ hasText: partner.coupleName });
  await expect(item.getByText(pose)).toBeVisible();
  const shown = item.getByRole("img", { name: `Selfie of ${partner.firstName}` });
  await expect(shown).toBeVisible();
  expect(await shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(600);
  await checkedInBothThemes(moderator.page);
  // Nobody else reaches the selfie.
  const selfieUrl = (await shown.getAttribute("src"))!;
  expect((await other.page.request.get(selfieUrl)).status()).toBe(403);
  // The couple's page shows the waiting selfie too, from the same moderators' route.
  await item.getByRole("link", { name: partner.coupleName }).click();
  const onCouplePage = moderator.page.getByRole("region", { name: "Photo verification" });
  await expect(onCouplePage.getByText(/Waiting for a moderator \(sent on \d{1,2} \w+ \d{4}\)/)).toBeVisible();
  await expect(onCouplePage.getByRole("img", { name: `Selfie of ${partner.firstName}, waiting` })).toHaveAttribute("src", selfieUrl);
  await checkedInBothThemes(moderator.page);
  const couplePage = moderator.page.url();
  await moderator.page.goto("/moderation/verifications");
  await item.getByRole("button", { name: "Approve" }).click();
  await expect(moderator.page.getByText(`${partner.firstName} of ${partner.coupleName}: approved.`)).toBeVisible();
  expect((await moderator.page.request.get(selfieUrl)).status()).toBe(404);
  // Decided: the couple's page keeps the state and its date, never the selfie.
  await moderator.page.goto(couplePage);
  await expect(onCouplePage.getByText(/Photo verified on \d{1,2} \w+ \d{4}/)).toBeVisible();
  await expect(onCouplePage.getByRole("img")).toHaveCount(0);

  // The partner is verified.
  await partner.page.reload();
  await expect(partner.page.getByText(/^Verified on \d{1,2} \w+ \d{4}$/)).toBeVisible();

  // Another couple: the badge on the card and the profile, explaining itself on focus; the filter.
  const firstWord = partner.coupleName.split(" ")[0]!;
  await other.page.goto(`/directory?q=${encodeURIComponent(firstWord)}&photoVerified=1`);
  const cards = other.page.getByRole("list", { name: "Couples" });
  await expect(cards.getByRole("link").filter({ hasText: partner.coupleName })).toBeVisible();
  const badge = cards.getByRole("button", { name: "Photo verified" });
  await badge.focus();
  await expect(other.page.getByText("A moderator compared one partner's posed selfie with their photos")).toBeVisible();
  await expect(other.page.getByRole("button", { name: /^Filters \(2\)$/ })).toBeVisible();
  await other.page.getByRole("button", { name: /^Filters/ }).click();
  await expect(other.page.getByRole("checkbox", { name: "Photo verified" })).toBeChecked();
  await other.page.keyboard.press("Escape");
  await checkedInBothThemes(other.page);
  // The moderator's couple is not photo verified: found without the filter, left out with it.
  const unverified = encodeURIComponent(moderator.coupleName.split(" ")[0]!);
  await other.page.goto(`/directory?q=${unverified}`);
  await expect(cards.getByRole("link").filter({ hasText: moderator.coupleName })).toBeVisible();
  await other.page.goto(`/directory?q=${unverified}&photoVerified=1`);
  await expect(other.page.getByRole("link").filter({ hasText: moderator.coupleName })).toHaveCount(0);

  await other.page.goto(`/directory?q=${encodeURIComponent(firstWord)}`);
  await cards.getByRole("link").filter({ hasText: partner.coupleName }).first().click();
  await expect(other.page.getByRole("heading", { level: 1, name: partner.coupleName })).toBeVisible();
  await other.page.getByRole("button", { name: "Photo verified" }).click();
  await expect(other.page.getByText("A moderator compared one partner's posed selfie with their photos")).toBeVisible();
});
