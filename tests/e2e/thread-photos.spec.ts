import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import sharp from "sharp";
import { PHONE } from "./checks";
import { newCouple, startConversation } from "./support";

/**
 * Photos never hide the newest message: each photo keeps its room before it loads, and a thread
 * whose newest messages are photos opens at the bottom, the last caption in view, for the sender
 * and for the reader. Couples of its own (newCouple).
 */
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

const photo = async (background: string) => ({
  name: "view.jpg",
  mimeType: "image/jpeg",
  buffer: await sharp({ create: { width: 1600, height: 1200, channels: 3, background } })
    .jpeg()
    .toBuffer(),
});

/** How far the thread's newest message is below the log's bottom edge, in px (0: in view at the bottom). */
const distanceFromBottom = (page: Page) =>
  page.getByRole("log", { name: "Messages" }).evaluate((log) => {
    const content = log.firstElementChild!.getBoundingClientRect();
    return content.bottom - (log.getBoundingClientRect().bottom - parseFloat(getComputedStyle(log).paddingBottom));
  });

test("a thread ending in photos opens and stays at the bottom, the last caption in view", async ({ browser, request }) => {
  test.setTimeout(240_000);
  const sara = await newCouple(browser, request, "Sara", PHONE);
  const olivia = await newCouple(browser, request, "Olivia", PHONE);

  const conversation = await startConversation(sara, olivia, "Sunset photos swap?");

  await sara.page.goto(conversation);
  const log = sara.page.getByRole("log", { name: "Messages" });
  // A photo taken back before sending: the keyboard lands in the message it was part of.
  await sara.page.locator('input[type="file"]').setInputFiles(await photo("#000000"));
  await sara.page.getByRole("button", { name: "Remove photo" }).click();
  await expect(sara.page.getByRole("img", { name: "Photo to send" })).toHaveCount(0);
  await expect(sara.page.getByRole("textbox", { name: "Message" })).toBeFocused();
  for (const [index, colour] of ["#2d6a4f", "#9d0208", "#1d3557", "#e9c46a"].entries()) {
    await sara.page.locator('input[type="file"]').setInputFiles(await photo(colour));
    await expect(sara.page.getByRole("img", { name: "Photo to send" })).toBeVisible();
    await sara.page.getByRole("textbox", { name: "Message" }).fill(`Caption ${index + 1}`);
    await sara.page.getByRole("button", { name: "Send", exact: true }).click();
    await expect(log.getByText(`Caption ${index + 1}`)).toBeVisible();
  }
  // The sender: the newest caption in view, at the bottom, once every photo has loaded.
  await expect(log.getByText("Caption 4")).toBeInViewport();
  await expect.poll(() => distanceFromBottom(sara.page)).toBeLessThan(4);

  // The reader opens the thread whose newest messages are photos: at the bottom, the last caption in view.
  await olivia.page.goto(conversation);
  const theirs = olivia.page.getByRole("log", { name: "Messages" });
  await expect(theirs.getByText("Caption 4")).toBeInViewport();
  await expect.poll(() => distanceFromBottom(olivia.page)).toBeLessThan(4);
  // Each photo had its room before it loaded: 4:3 at the thread's width.
  const box = await theirs.getByRole("img", { name: "Photo from Sara" }).last().boundingBox();
  expect(Math.round((box!.width / box!.height) * 100) / 100).toBeCloseTo(4 / 3, 1);
  // A tap opens it full size; Escape closes and gives focus back to the photo.
  await theirs.getByRole("button", { name: "Photo from Sara" }).last().click();
  const lightbox = olivia.page.getByRole("dialog", { name: "Photo from Sara" });
  await expect(lightbox).toBeVisible();
  await expect(lightbox.locator("img")).toBeVisible();
  await olivia.page.keyboard.press("Escape");
  await expect(lightbox).toHaveCount(0);
  await expect(theirs.getByRole("button", { name: "Photo from Sara" }).last()).toBeFocused();
});
