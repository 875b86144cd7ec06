import { expect, test } from "./test";
import { PHONE } from "./checks";
import { newCouple } from "./support";

/**
 * The camera path of photo verification: Chromium's fake camera (a generated video) stands in for
 * a phone's front camera, granted without a prompt, for this file only; the frame taken goes
 * through the crop and is sent like a picked file.
 */
test.use({
  actionTimeout: 30_000,
  navigationTimeout: 60_000,
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    // playwright.config.ts's arguments, plus the fake camera and its permission prompt answered.
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
    ],
  },
});

test("a partner takes the selfie with the camera, crops it and sends it for review", async ({ browser, request }) => {
  test.setTimeout(180_000);
  const partner = await newCouple(browser, request, "Camila", PHONE);
  await partner.page.context().grantPermissions(["camera"]);

  await partner.page.goto("/settings/verification");
  await expect(partner.page.getByText("Not started")).toBeVisible();
  await partner.page.getByRole("button", { name: "Use the camera" }).click();
  await expect(partner.page.getByRole("button", { name: "Take the photo" })).toBeEnabled();
  // The preview plays the camera's frames (the fake device's video has a size).
  await expect
    .poll(() => partner.page.getByLabel("Camera preview").evaluate((video: HTMLVideoElement) => video.videoWidth))
    .toBeGreaterThan(0);
  await partner.page.getByRole("button", { name: "Take the photo" }).click();

  // The frame goes through the crop like a picked file, then is sent.
  const crop = partner.page.getByRole("dialog", { name: "Crop Your Image" });
  await crop.getByRole("button", { name: "Apply Crop" }).click();
  await expect(crop).toBeHidden();
  await expect(partner.page.getByLabel("Camera preview")).toHaveCount(0);
  await expect(partner.page.getByRole("img", { name: "Your selfie, ready to send" })).toBeVisible();
  await partner.page.getByRole("button", { name: "Send for review" }).click();
  await expect(partner.page.getByText(/^Waiting for a moderator/)).toBeVisible();
  await expect(partner.page.getByText("The camera is not available")).toHaveCount(0);
});
