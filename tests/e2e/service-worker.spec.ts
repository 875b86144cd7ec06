import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { DEMO_INBOX, DEMO_PASSWORD, demoEmail } from "../../lib/demo/data";
import { signIn } from "./support";

/** The app's own service worker (/sw.js): registration, the offline page, what it caches, push, sign-out. */

const maya = { email: demoEmail(DEMO_INBOX.recipient), password: DEMO_PASSWORD };

async function signedInWithWorker(page: Page) {
  await signIn(page, maya);
  await expect(page).toHaveURL(/\/dashboard$/);
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(new URL(scope).pathname).toBe("/");
}

const cachedUrls = (page: Page) =>
  page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    return urls;
  });

/** The worker's DevTools target, through which a push is delivered as a push service would. */
async function deliverPush(context: BrowserContext, page: Page, data: unknown) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("ServiceWorker.enable");
  const registrationId = await new Promise<string>((resolve) => {
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const ours = registrations.find((registration) => new URL(registration.scopeURL).pathname === "/" && !registration.isDeleted);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send("ServiceWorker.deliverPushMessage", { origin: new URL(page.url()).origin, registrationId, data: JSON.stringify(data) });
}

test.describe("the app's service worker", () => {
  test("registers with scope /, keeps only static files, and answers a failed navigation with the offline page", async ({
    page,
    context,
  }) => {
    await signedInWithWorker(page);
    // Controlled from the next navigation on (the worker claims open pages as it activates).
    await page.goto("/messages");
    await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    await page.goto("/dashboard");
    const urls = await cachedUrls(page);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(new URL(url).pathname).toMatch(/^\/(_next\/static\/|icon|apple-icon|favicon)/);

    await context.setOffline(true);
    await page.goto("/forum").catch(() => undefined);
    await expect(page.getByRole("heading", { name: "You are offline" })).toBeVisible();
    await expect(page.getByText("What still works")).toBeVisible();
    const retry = page.getByRole("link", { name: "Try again" });
    await expect(retry).toHaveAttribute("href", "/forum");
    await context.setOffline(false);
    await retry.click();
    await expect(page).toHaveURL(/\/forum$/);
    await expect(page.getByRole("heading", { name: "You are offline" })).toHaveCount(0);
  });

  test("a push delivered to the worker shows its notification, except in the tab showing that conversation", async ({ page, context }) => {
    await context.grantPermissions(["notifications"]);
    await signedInWithWorker(page);
    const notifications = () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((shown) => ({
          title: shown.title,
          body: shown.body,
          url: (shown.data as { url: string }).url,
        })),
      );
    await deliverPush(context, page, {
      title: "New messages from Ana & Rui",
      body: "3 new messages from Ana & Rui",
      url: "/messages/00000000-0000-4000-8000-000000000001",
      tag: "conversation:00000000-0000-4000-8000-000000000001",
      conversationId: "00000000-0000-4000-8000-000000000001",
      unread: 3,
    });
    await expect.poll(notifications).toEqual([
      {
        title: "New messages from Ana & Rui",
        body: "3 new messages from Ana & Rui",
        url: "/messages/00000000-0000-4000-8000-000000000001",
      },
    ]);
  });

  test("signing out empties the worker's caches", async ({ page }) => {
    await signedInWithWorker(page);
    await page.goto("/messages");
    await expect.poll(async () => (await cachedUrls(page)).length).toBeGreaterThan(0);
    const before = await cachedUrls(page);
    await page.goto("/signout");
    await expect(page).toHaveURL(/\/login$/);
    // The login page's own files may be kept again as it loads; what only signed-in pages used is gone.
    const loadedSince = await page.evaluate(() => performance.getEntriesByType("resource").map((entry) => entry.name));
    const signedInOnly = before.filter((url) => !loadedSince.includes(url));
    expect(signedInOnly.length).toBeGreaterThan(0);
    const after = await cachedUrls(page);
    expect(signedInOnly.filter((url) => after.includes(url))).toEqual([]);
  });
});
