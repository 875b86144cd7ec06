import { createECDH, randomBytes } from "node:crypto";
import type { Page, TestInfo } from "@playwright/test";
import { expect, test } from "./test";
import { axe, LAPTOP, noHorizontalScroll, PHONE } from "./checks";
import { csrfToken, newCouple, startConversation } from "./support";

/**
 * Push in the settings and the one gentle prompt, with couples of their own (newCouple). The
 * browser's push service is not reached from here: a device is added through the API as a browser
 * would after subscribing.
 */
test.describe.configure({ mode: "serial" });

type Person = { page: Page; coupleName: string };

async function check(page: Page, name: string, testInfo: TestInfo) {
  await noHorizontalScroll(page);
  await axe(page);
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

test("settings: this device, message previews, the Push column, and the device list with Remove", async ({
  browser,
  request,
}, testInfo) => {
  // Two couples made and each screen checked at two sizes: 45 s alone, past a minute beside another walk.
  test.setTimeout(120_000);
  for (const [viewport, label] of [
    [PHONE, "phone"],
    [LAPTOP, "laptop"],
  ] as const) {
    const { page } = await newCouple(browser, request, "Amelia", viewport);
    await page.goto("/settings/notifications");
    const section = page.getByRole("region", { name: "Notifications on this device" });
    await expect(section.getByRole("status")).toHaveText("Notifications are off on this device.");
    await expect(section.getByRole("button", { name: "Turn on notifications on this device" })).toBeVisible();
    const previews = section.getByRole("checkbox", { name: /Show message previews/ });
    await expect(previews).not.toBeChecked();
    // A choice the server refused is not shown as made.
    await page.route("**/api/push/settings", (route) =>
      route.fulfill({ status: 400, json: { error: { code: "VALIDATION_ERROR", message: "Refused for the test." } } }),
    );
    await previews.click();
    await expect(section.getByText("Refused for the test.")).toBeVisible();
    await expect(previews).toBeEnabled();
    await expect(previews).not.toBeChecked();
    await page.unroute("**/api/push/settings");
    // Push is on by default for messages, hello requests and acceptances, off for the rest.
    await expect(page.getByRole("group", { name: "Messages" }).getByRole("checkbox", { name: "Push" })).toBeChecked();
    await expect(page.getByRole("group", { name: "Accepted requests" }).getByRole("checkbox", { name: "Push" })).toBeChecked();
    await expect(page.getByRole("group", { name: "Reactions" }).getByRole("checkbox", { name: "Push" })).not.toBeChecked();
    // Nothing asks the browser's permission before the button is pressed.
    expect(await page.evaluate(() => Notification.permission)).toBe("default");
    await check(page, `push-settings-${label}`, testInfo);

    const added = await page.request.post("/api/push/subscriptions", {
      headers: { "X-CSRF-Token": await csrfToken(page) },
      // Keys a push can be encrypted to, as a browser makes them: a P-256 public key and a 16-byte secret.
      data: {
        endpoint: `https://8.8.8.8/push/e2e-${label}-${Date.now()}`,
        keys: { p256dh: createECDH("prime256v1").generateKeys("base64url"), auth: randomBytes(16).toString("base64url") },
      },
    });
    expect(added.status()).toBe(201);
    await page.reload();
    const devices = page.getByRole("list", { name: "Devices with notifications on" });
    await expect(devices.getByRole("listitem")).toHaveCount(1);
    await expect(devices.getByRole("listitem")).toContainText("Chrome on Linux");
    await expect(devices.getByRole("listitem")).toContainText("This device");
    await check(page, `push-devices-${label}`, testInfo);
    await devices.getByRole("button", { name: /^Remove Chrome on Linux/ }).click();
    await expect(page.getByText("No device has notifications on.")).toBeVisible();
    await page.context().close();
  }
});

test("one gentle prompt after the couple's first accepted hello; 'Not now' is remembered", async ({ browser, request }, testInfo) => {
  // Two new couples, a hello and two looks: about 50 s alone, past 60 beside another walk on two cores.
  test.setTimeout(120_000);
  const amelia = await newCouple(browser, request, "Amelia", LAPTOP);
  const hanna = await newCouple(browser, request, "Hanna", PHONE);
  const prompt = (who: Person) => who.page.getByRole("complementary", { name: "Know when they write back" });

  // Before any conversation: no prompt.
  await hanna.page.goto("/messages");
  await expect(hanna.page.getByRole("tab", { name: /^Requests/ })).toBeVisible();
  await expect(prompt(hanna)).toHaveCount(0);

  const conversation = await startConversation(amelia, hanna, "Hello from the push test!");
  // On a phone the open thread keeps the whole screen: the prompt waits at the top of the inbox.
  await hanna.page.reload();
  await expect(hanna.page.getByRole("heading", { level: 1, name: amelia.coupleName })).toBeVisible();
  await expect(prompt(hanna)).toBeHidden();
  await hanna.page.goto("/messages");
  await expect(prompt(hanna)).toBeVisible();
  expect(await hanna.page.evaluate(() => Notification.permission)).toBe("default");
  await check(hanna.page, "push-prompt-phone", testInfo);
  await prompt(hanna).getByRole("button", { name: "Not now" }).click();
  await expect(prompt(hanna)).toHaveCount(0);
  await hanna.page.reload();
  await expect(hanna.page.getByRole("heading", { level: 1, name: "Messages" })).toBeVisible();
  await expect(prompt(hanna)).toHaveCount(0);

  // On a laptop it sits in the inbox beside the thread, whose composer stays on the screen.
  await amelia.page.goto(conversation);
  await expect(prompt(amelia)).toBeVisible();
  const composer = (await amelia.page.getByRole("textbox", { name: "Message" }).boundingBox())!;
  expect(composer.y + composer.height).toBeLessThanOrEqual(LAPTOP.height);
  await check(amelia.page, "push-prompt-laptop", testInfo);
});
