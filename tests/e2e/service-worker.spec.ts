import type { BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./test";
import { DEMO_INBOX, DEMO_PASSWORD, demoEmail } from "../../lib/demo/data";
import { LAPTOP } from "./checks";
import { newCouple, openProfile, sayHello, signIn } from "./support";

/**
 * The app's own service worker (/sw.js): registration, updating to a new build's worker, the
 * offline page, what it caches, push and a notification's click, sign-out.
 */

const marisol = { email: demoEmail(DEMO_INBOX.recipient), password: DEMO_PASSWORD };

async function signedInWithWorker(page: Page) {
  await signIn(page, marisol);
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

/**
 * A push delivered through the worker's DevTools target, as a push service would, settled: it
 * returns once Chromium reports the worker's push event done (its waitUntil, the notification
 * shown). Reading the notifications earlier races Chromium's own clean-up: a getNotifications()
 * whose list of what is on screen was taken just before the new notification went up deletes it
 * as no longer shown, and the test then waits for one that is gone (seen about once in 40 runs
 * when the other worker ran the other push test at the same time).
 */
async function deliverPush(context: BrowserContext, page: Page, data: unknown) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("ServiceWorker.enable");
  const registrationId = await new Promise<string>((resolve) => {
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const ours = registrations.find((registration) => new URL(registration.scopeURL).pathname === "/" && !registration.isDeleted);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send("BackgroundService.startObserving", { service: "pushMessaging" });
  await cdp.send("BackgroundService.setRecording", { shouldRecord: true, service: "pushMessaging" });
  let status: string | undefined;
  cdp.on("BackgroundService.backgroundServiceEventReceived", ({ backgroundServiceEvent: event }) => {
    if (event.eventName === "Push event completed") status = event.eventMetadata.find(({ key }) => key === "Status")?.value;
  });
  await cdp.send("ServiceWorker.deliverPushMessage", { origin: new URL(page.url()).origin, registrationId, data: JSON.stringify(data) });
  await expect.poll(() => status, { message: "the worker's push event ends" }).toBe("Success");
  await cdp.detach();
}

/**
 * Chromium keeps running a worker DevTools is attached to (Playwright attaches to every one), where
 * it stops any other idle for 30 s; and a new worker asked to take over waits for the old one to
 * have no work, which needs that stop once its "stop as soon as idle" was spent on requests still
 * in flight (content/browser/service_worker, ServiceWorkerVersion::OnRequestTermination): here the
 * hand-over then waits for Chromium's 5-minute limit for an outgoing worker (kMaxLameDuckTime;
 * seen 1 run in 16 under load). Stopping the old worker, as its idle timer would in a browser
 * without DevTools, completes a hand-over the page asked for; one it never asked for stays waiting
 * (the old worker still controls the page).
 */
async function stopOutgoingWorker(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  const outgoing = new Promise<string>((resolve) => {
    cdp.on("ServiceWorker.workerVersionUpdated", ({ versions }) => {
      const active = versions.find((version) => version.status === "activated" && new URL(version.scriptURL).pathname === "/sw.js");
      if (active) resolve(active.versionId);
    });
  });
  await cdp.send("ServiceWorker.enable");
  await cdp.send("ServiceWorker.stopWorker", { versionId: await outgoing });
  await cdp.detach();
}

/** The names of the caches the worker keeps: `static-<its version>`. */
const cacheNames = (page: Page) => page.evaluate(() => caches.keys());

/**
 * Two builds without a second build: the page's first /sw.js (its registration) is answered with the
 * real script from the server under a previous build's version (the build's id, all that differs
 * between two builds' scripts). The browser's later update checks are made by the browser itself,
 * outside the page's routes, and meet the server's real script: a new build, as far as the browser
 * can tell. `served.previous` says what the routed answers carried.
 */
async function registerAsPreviousBuild(context: BrowserContext) {
  const served: { previous: string | null; routed: number } = { previous: null, routed: 0 };
  await context.route("**/sw.js", async (route) => {
    const response = await route.fetch();
    const script = await response.text();
    const version = /^const VERSION = "(.*)";$/m.exec(script)![1]!;
    served.previous = `${version}-previous`;
    served.routed++;
    return route.fulfill({ response, body: script.replace(`const VERSION = "${version}";`, `const VERSION = "${served.previous}";`) });
  });
  return served;
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

  test("a new build's worker installs and waits while a form is filled, takes over at the next navigation, and drops the old build's caches", async ({
    page,
    context,
  }) => {
    // The hand-over waits for the old worker's requests in flight to end (the spec's Activate): on
    // a machine busy with the other walk it took longer than 10 s twice in one whole check.
    test.setTimeout(120_000);
    const served = await registerAsPreviousBuild(context);
    await signedInWithWorker(page);
    await page.goto("/dashboard");
    await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    await expect.poll(async () => (await cachedUrls(page)).length).toBeGreaterThan(0);
    const oldCache = `static-${served.previous}`;
    expect(await cacheNames(page)).toEqual([oldCache]);
    // Counts controller changes for the rest of the page's life (client-side navigations keep it).
    await page.evaluate(() => {
      const counted = window as unknown as { controllerChanges: number };
      counted.controllerChanges = 0;
      navigator.serviceWorker.addEventListener("controllerchange", () => counted.controllerChanges++);
    });
    const controllerChanges = () => page.evaluate(() => (window as unknown as { controllerChanges: number }).controllerChanges);
    const workers = () =>
      page.evaluate(async () => {
        const registration = (await navigator.serviceWorker.getRegistration("/"))!;
        return {
          waiting: registration.waiting?.state ?? null,
          controllerIsActive: navigator.serviceWorker.controller === registration.active,
        };
      });

    // A change of path (the forum, with its post form) checks /sw.js again: the new build's worker installs and waits.
    await page.locator('a[href="/forum"]:visible').first().click();
    await expect(page).toHaveURL(/\/forum$/);
    await expect.poll(workers).toEqual({ waiting: "installed", controllerIsActive: true });
    expect(served.routed).toBe(1);

    // In the middle of a form: typing takes time, and the old worker still controls the page.
    const composer = page.getByRole("form", { name: "New Post" });
    const newPost = page.getByRole("button", { name: "New Post" });
    await expect(async () => {
      // Pressed before the page's code ran, it did nothing: press it again. Pressed, it gives way
      // at once to the form, whose code may take a while to load on a busy machine: wait for it.
      if (await newPost.isVisible()) await newPost.click();
      await expect(composer).toBeVisible({ timeout: 5_000 });
    }).toPass();
    await composer.getByLabel("Your post").pressSequentially("Half a thought, still being typed", { delay: 60 });
    await page.waitForTimeout(1_000);
    expect(await workers()).toEqual({ waiting: "installed", controllerIsActive: true });
    expect(await controllerChanges()).toBe(0);
    expect(await cacheNames(page)).toContain(oldCache);
    await expect(composer.getByLabel("Your post")).toHaveValue("Half a thought, still being typed");

    // The next navigation (another path) hands over: the new worker controls, nothing reloaded, the old caches are gone.
    await page.locator('a[href="/messages"]:visible').first().click();
    await expect(page).toHaveURL(/\/messages$/);
    const handedOver = await expect
      .poll(controllerChanges, { timeout: 15_000 })
      .toBe(1)
      .then(
        () => true,
        () => false,
      );
    if (!handedOver) {
      test
        .info()
        .annotations.push({ type: "outgoing worker stopped", description: "the hand-over waited on the DevTools-held old worker" });
      await stopOutgoingWorker(context, page);
    }
    await expect
      .poll(controllerChanges, { timeout: 25_000 })
      .toBe(1)
      .catch(async (error: Error) => {
        // Where the workers stood when no hand-over came (still waiting, or gone): what a failure's reader needs first.
        throw new Error(`${error.message}\nthe registration then: ${JSON.stringify(await workers())}`);
      });
    await expect.poll(workers, { timeout: 20_000 }).toEqual({ waiting: null, controllerIsActive: true });
    await expect.poll(async () => (await cacheNames(page)).includes(oldCache!), { timeout: 20_000 }).toBe(false);
    const version = served.previous!.replace(/-previous$/, "");
    for (const name of await cacheNames(page)) expect(name).toBe(`static-${version}`);
    // The worker now in charge is the new build's.
    const running = await Promise.all(context.serviceWorkers().map((worker) => worker.evaluate("VERSION").catch(() => null)));
    expect(running).toContain(version);
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

  test("a notification's click moves the app's tab to the conversation (the worker's own click handling, driven in the worker)", async ({
    browser,
    request,
  }) => {
    const amelia = await newCouple(browser, request, "Amelia", LAPTOP);
    const hanna = await newCouple(browser, request, "Hanna", LAPTOP);
    await openProfile(amelia, hanna.coupleName);
    await sayHello(amelia, hanna.coupleName, "Hello from the notification test!");
    await hanna.page.goto("/messages");
    await hanna.page.getByRole("tab", { name: /^Requests/ }).click();
    await hanna.page.getByRole("button", { name: "Accept" }).click();
    await expect(hanna.page).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
    const conversationUrl = new URL(hanna.page.url()).pathname;
    const conversationId = conversationUrl.split("/").at(-1)!;

    const context = hanna.page.context();
    await context.grantPermissions(["notifications"]);
    await hanna.page.goto("/dashboard");
    await expect.poll(() => hanna.page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    await deliverPush(context, hanna.page, {
      title: `New messages from ${amelia.coupleName}`,
      body: `Amelia of ${amelia.coupleName} sent a message`,
      url: conversationUrl,
      tag: `conversation:${conversationId}`,
      conversationId,
      unread: 1,
    });
    await expect
      .poll(() => hanna.page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).length))
      .toBe(1);

    // The browser's click on a system notification cannot be made headless: the worker is handed a
    // 'notificationclick' for the very notification it showed, and its own listener runs. Only the
    // branch that moves an open tab can complete so: Chromium refuses focus() and openWindow() to an
    // event it did not dispatch ("Not allowed to focus a window"), which a real click allows.
    const worker = context.serviceWorkers().find((candidate) => new URL(candidate.url()).pathname === "/sw.js")!;
    const clicked = await worker.evaluate(`(async () => {
      const [notification] = await self.registration.getNotifications();
      self.dispatchEvent(new NotificationEvent("notificationclick", { notification }));
      return notification.data.url;
    })()`);
    expect(clicked).toBe(conversationUrl);
    // The tab of the app showing another page is moved to the conversation; the notification is closed.
    await expect(hanna.page).toHaveURL(new RegExp(`${conversationUrl}$`));
    await expect(hanna.page.getByRole("log", { name: "Messages" })).toBeVisible();
    await expect
      .poll(() => hanna.page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).length))
      .toBe(0);
    await amelia.page.context().close();
    await context.close();
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
