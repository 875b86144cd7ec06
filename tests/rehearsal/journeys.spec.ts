import { mkdir } from "node:fs/promises";
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from "@playwright/test";
import sharp from "sharp";
import { DEMO_COUPLES, DEMO_PASSWORD, demoEmail } from "../../lib/demo/data";
import { MAX_REQUEST_BYTES } from "../../lib/http/body";
import { csrf, signIn } from "./support";

/**
 * Journeys through the rehearsal's edge: every request may land on either instance, bodies over
 * 4.5 MB are refused, responses are cut at the maximum duration. The deployment is a preview: the
 * reviewer reads the mail at /dev/outbox with the access token's cookie.
 */
const TOKEN = process.env.PREVIEW_ACCESS_TOKEN ?? "";
const PASSWORD = "Sunset#Walk42";
let counter = 0;
const uniqueEmail = (label: string) => `${label}-${Date.now()}-${++counter}@rehearsal.example.com`;

/** A browser context holding the reviewer's cookie (one visit of /dev/outbox?access=TOKEN). */
async function reviewer(
  browser: Browser,
  options: Parameters<Browser["newContext"]>[0] = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await page.goto(`/dev/outbox?access=${encodeURIComponent(TOKEN)}`);
  await expect(page).toHaveURL(/\/dev\/outbox$/);
  await expect(page.getByRole("heading", { level: 1, name: "Dev outbox" })).toBeVisible();
  return { context, page };
}

/** Waits until React has taken the element over (its props are attached): what is typed then stays typed. */
async function hydrated(locator: Locator): Promise<void> {
  await expect.poll(() => locator.evaluate((element) => Object.keys(element).some((key) => key.startsWith("__reactProps$")))).toBe(true);
}

/** The newest link to `path` in the mail to `email`, read as the reviewer (the context's cookie). */
async function mailedLink(context: BrowserContext, email: string, path: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const response = await context.request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`);
      const { messages } = (await response.json()) as { messages: { text: string }[] };
      link = messages[0]?.text.match(new RegExp(`https?://[^\\s]+${path}\\?[^\\s]+`))?.[0];
      return link;
    })
    .toBeTruthy();
  return link!;
}

/** Records the page's /api/stream requests: every one opened, and every one that ended (cut or closed). */
function watchStreams(page: Page) {
  const opened: string[] = [];
  const ended: string[] = [];
  const isStream = (url: string) => new URL(url).pathname === "/api/stream";
  page.on("request", (request) => void (isStream(request.url()) && opened.push(request.url())));
  page.on("requestfinished", (request) => void (isStream(request.url()) && ended.push(request.url())));
  page.on("requestfailed", (request) => void (isStream(request.url()) && ended.push(request.url())));
  return { opened, ended };
}

/** A verified account made through the API and its e-mailed link. */
async function verifiedAccount(context: BrowserContext, label: string, firstName: string) {
  const email = uniqueEmail(label);
  const registered = await context.request.post("/api/auth/register", {
    data: { email, password: PASSWORD, firstName, lastName: "Hart", dateOfBirth: "1991-06-15" },
  });
  expect(registered.status()).toBe(201);
  const link = new URL(await mailedLink(context, email, "/verify-email"));
  const verified = await context.request.post("/api/email-verification/verify", { data: { token: link.searchParams.get("token"), email } });
  expect(verified.status()).toBe(200);
  return email;
}

/**
 * Photos as large as the phone pipeline makes them: noise does not compress, so each cropped and
 * compressed photo stays near its largest.
 */
async function noisyPhoto(dir: string, name: string, width: number, height: number): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = `${dir}/${name}`;
  await sharp({ create: { width, height, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 60 } } })
    .jpeg({ quality: 95 })
    .toFile(path);
  return path;
}

const photoInput = (page: Page, label: string) => page.getByRole("group", { name: label }).locator('input[type="file"]');

async function applyCrops(page: Page, count: number) {
  const dialog = page.getByRole("dialog", { name: "Crop Your Image" });
  for (let i = 0; i < count; i++) {
    await expect(dialog.locator(".ReactCrop__crop-selection")).toBeVisible();
    await dialog.getByRole("button", { name: "Apply Crop" }).click();
  }
  await expect(dialog).toBeHidden();
}

test("a reviewer: the outbox is 404 without the token; with it, signs up, reads the verification mail, and signs in as a demo couple", async ({
  browser,
}, testInfo) => {
  const stranger = await browser.newContext();
  const page = await stranger.newPage();
  expect((await page.goto("/dev/outbox"))!.status()).toBe(404);
  expect((await page.goto("/dev/outbox?access=not-the-token"))!.status()).toBe(404);
  expect((await stranger.request.get("/api/dev/outbox")).status()).toBe(404);
  // Every page says it is a preview, of which commit, and asks not to be indexed.
  const login = await page.goto("/login");
  expect(login!.headers()["x-robots-tag"]).toContain("noindex");
  const ribbon = page.getByRole("complementary", { name: "Preview deployment" });
  await expect(ribbon).toContainText("Preview");
  if (process.env.REHEARSE_COMMIT) await expect(ribbon).toContainText(process.env.REHEARSE_COMMIT);
  await stranger.close();

  // The ribbon covers no control, on a phone and on a desktop, in both themes.
  for (const look of [
    { width: 360, height: 740, colorScheme: "light" },
    { width: 360, height: 740, colorScheme: "dark" },
    { width: 1280, height: 800, colorScheme: "dark" },
  ] as const) {
    const context = await browser.newContext({ viewport: { width: look.width, height: look.height }, colorScheme: look.colorScheme });
    const shot = await context.newPage();
    await shot.goto("/login");
    await expect(shot.getByRole("complementary", { name: "Preview deployment" })).toBeVisible();
    const covered = await shot.evaluate(() => {
      const ribbon = document.querySelector('aside[aria-label="Preview deployment"]')!;
      return [...document.querySelectorAll<HTMLElement>("a, button, input, select, textarea")]
        .filter((control) => control.getClientRects().length > 0 && !control.closest(".skip-link"))
        .filter((control) => {
          const box = control.getBoundingClientRect();
          const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          return hit !== null && ribbon.contains(hit);
        })
        .map((control) => control.outerHTML.slice(0, 80));
    });
    expect(covered).toEqual([]);
    await shot.screenshot({ path: testInfo.outputPath(`ribbon-${look.width}-${look.colorScheme}.png`) });
    await context.close();
  }

  const { context, page: outbox } = await reviewer(browser, { viewport: { width: 360, height: 740 } });
  // Signing up as a person would, on a phone.
  const email = uniqueEmail("reviewer");
  await outbox.goto("/register");
  await outbox.getByLabel("First name").fill("Rev");
  await outbox.getByLabel("Last name").fill("Iewer");
  await outbox.getByLabel("Email").fill(email);
  await outbox.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await outbox.getByLabel("Confirm password").fill(PASSWORD);
  await outbox.getByLabel("Date of birth").fill("1990-04-12");
  await outbox.getByRole("button", { name: "Create Account" }).click();
  await expect(outbox).toHaveURL(/\/verify-email\?/);
  // The mail never left the preview: it is in the outbox, its link clickable.
  await outbox.goto(`/dev/outbox?to=${encodeURIComponent(email)}`);
  const verification = outbox.getByRole("link", { name: /\/verify-email\?/ }).first();
  await expect(verification).toBeVisible();
  await verification.click();
  await expect(outbox.getByText(/Email verified successfully!/)).toBeVisible();

  // The demo couples were seeded on the preview's first start.
  const marisol = DEMO_COUPLES[0]!.partnerA;
  await context.clearCookies();
  await signIn(outbox, demoEmail(marisol.firstName), DEMO_PASSWORD);
  await expect(outbox).toHaveURL(/\/dashboard$/);
  await context.close();
});

test("sign-up to a verified couple with six photos, each request under 4.5 MB", async ({ browser }, testInfo) => {
  const { context, page } = await reviewer(browser, { deviceScaleFactor: 3, viewport: { width: 390, height: 844 } });
  const email = await verifiedAccount(context, "couple-a", "Robin");
  const sizes: { url: string; bytes: number }[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") sizes.push({ url: new URL(request.url()).pathname, bytes: request.postDataBuffer()?.byteLength ?? 0 });
  });
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/onboarding$/);

  const dir = testInfo.outputPath("photos");
  await page.getByRole("combobox", { name: "Location" }).fill("lisb");
  await page.getByRole("option", { name: /^Lisbon\s*Portugal$/ }).click();
  await photoInput(page, "Profile photo").setInputFiles(await noisyPhoto(dir, "me.jpg", 1800, 1800));
  await applyCrops(page, 1);
  await page.getByLabel("Occupation").fill("Architect");
  const interests = page.getByRole("group", { name: "Interests" });
  const closed = interests.locator("details:not([open]) > summary");
  while ((await closed.count()) > 0) await closed.first().click();
  for (const name of ["Travel", "Food & Dining", "Wine Tasting", "Home Entertaining", "Music"]) {
    await page.getByRole("checkbox", { name, exact: true }).check();
  }
  await page.getByRole("button", { name: "Continue Setup" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Create your couple profile" })).toBeVisible();

  const coupleName = `Robin & Thaddeus ${Date.now()}`;
  await page.getByLabel("What should we call you two?").fill(coupleName);
  await photoInput(page, "Main couple photo").setInputFiles(await noisyPhoto(dir, "main.jpg", 2400, 2400));
  await applyCrops(page, 1);
  const extras = await Promise.all([1, 2, 3, 4, 5].map((i) => noisyPhoto(dir, `extra-${i}.jpg`, 2400, 1800)));
  await photoInput(page, "More couple photos (optional)").setInputFiles(extras);
  await applyCrops(page, 5);
  await expect(page.getByRole("img", { name: /^Couple photo \d$/ })).toHaveCount(5);
  await page
    .getByRole("group", { name: "Adventure styles" })
    .getByRole("checkbox", { name: /^Global Adventurers/ })
    .check();
  await page.getByLabel("Bio", { exact: true }).fill("We travel slowly and eat everything on the way.");
  await page.getByRole("button", { name: "Complete Profile!" }).click();
  await expect(page).toHaveURL(/\/invite-partner$/);

  // One photo per request to the staging call, then a small save: no request near the limit.
  const uploads = sizes.filter((s) => s.url === "/api/uploads");
  expect(uploads).toHaveLength(6);
  expect(Math.max(...sizes.map((s) => s.bytes))).toBeLessThan(MAX_REQUEST_BYTES);
  testInfo.annotations.push({
    type: "photo bytes",
    description: `${uploads.map((u) => u.bytes).join(", ")} (total ${uploads.reduce((a, u) => a + u.bytes, 0)})`,
  });

  // The partner joins through the e-mailed invitation: the couple is verified.
  const partnerEmail = uniqueEmail("couple-b");
  await page.getByLabel("Partner's first name").fill("Thaddeus");
  await page.getByLabel("Partner's last name").fill("Grant");
  await page.getByLabel("Partner's email").fill(partnerEmail);
  await page.getByRole("button", { name: "Send Invitation" }).click();
  await expect(page.getByText("They're In the Loop!")).toBeVisible();
  const invitation = await mailedLink(context, partnerEmail, "/register");
  const partner = await browser.newContext();
  const pageB = await partner.newPage();
  await pageB.goto(invitation);
  await expect(pageB.getByRole("heading", { name: "Welcome, Thaddeus!" })).toBeVisible();
  await pageB.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await pageB.getByLabel("Confirm Password").fill(PASSWORD);
  await pageB.getByLabel("Date of Birth").fill("1991-07-08");
  await pageB.getByRole("button", { name: "Join the Adventure!" }).click();
  await expect(pageB).toHaveURL(/\/onboarding$/);
  await pageB.goto("/partner-setup");
  await pageB.getByLabel("Occupation (optional)").fill("Chef");
  await pageB.getByRole("button", { name: "Complete Setup" }).click();
  await expect(pageB).toHaveURL(/\/dashboard\?welcome=partner$/);
  await pageB.goto("/profile");
  await expect(pageB.getByRole("heading", { level: 1, name: coupleName })).toBeVisible();
  await expect(pageB.getByText("Verified Couple").first()).toBeVisible();
  // The photos are served from the bucket, not from an instance's disk.
  const photos = pageB.locator('img[src*="/_bucket/"]');
  await expect(photos.first()).toBeVisible();
  expect(await photos.first().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  // As the app stored it: a year in the browser, an hour in a shared cache (a photo taken down leaves a CDN).
  const served = await pageB.request.get((await photos.first().getAttribute("src"))!);
  expect(served.headers()["cache-control"]).toBe("public, max-age=31536000, s-maxage=3600, immutable");
  await partner.close();
  await context.close();
});

test("forum post and reply between two demo couples", async ({ browser }) => {
  const [a, b] = [DEMO_COUPLES[0]!.partnerA, DEMO_COUPLES[1]!.partnerA];
  const pageA = await (await browser.newContext()).newPage();
  await signIn(pageA, demoEmail(a.firstName), DEMO_PASSWORD);
  await expect(pageA).toHaveURL(/\/dashboard$/);
  const title = `Rehearsal walk ${Date.now()}`;
  await pageA.goto("/forum");
  const composer = pageA.getByRole("form", { name: "New Post" });
  // A click that lands before the page is hydrated opens nothing: click until the composer opens.
  await expect(async () => {
    await pageA.getByRole("button", { name: "New Post" }).click();
    await expect(composer).toBeVisible({ timeout: 2_000 });
  }).toPass();
  await composer.getByLabel("Title").fill(title);
  await composer.getByLabel("Topic").selectOption({ label: "Travel" });
  await composer.getByLabel("Your post").fill("Who walks the coast with us on Saturday?");
  await composer.getByRole("radio", { name: "Global" }).check();
  await composer.getByRole("button", { name: "Publish Post" }).click();
  await expect(pageA).toHaveURL(/\/forum\/post\/[0-9a-f-]+$/);
  const postUrl = pageA.url();

  const pageB = await (await browser.newContext()).newPage();
  await signIn(pageB, demoEmail(b.firstName), DEMO_PASSWORD);
  await expect(pageB).toHaveURL(/\/dashboard$/);
  await pageB.goto(postUrl);
  await expect(pageB.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await pageB.getByRole("textbox", { name: "Write a reply" }).fill("Count us in, see you there!");
  await pageB.getByRole("button", { name: "Reply", exact: true }).click();
  await expect(pageB.locator('[id^="reply-"]').filter({ hasText: "see you there!" })).toBeVisible();
  // A sees the reply arrive (new replies are fetched every 10 s), from whichever instance answers.
  await expect(pageA.locator('[id^="reply-"]').filter({ hasText: "see you there!" })).toBeVisible({ timeout: 30_000 });
});

test("settings changes: the couple's profile with a new photo, and the person's occupation", async ({ browser }, testInfo) => {
  const thaddeus = DEMO_COUPLES[0]!.partnerB;
  const page = await (await browser.newContext()).newPage();
  await signIn(page, demoEmail(thaddeus.firstName), DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard/);
  await page.goto("/settings/couple");
  const bio = `Rehearsed bio ${Date.now()}: two people, one map, no plan.`;
  // Typed before hydration, the text meets the server's bio when React takes the field over.
  await hydrated(page.getByLabel(/bio/i));
  await page.getByLabel(/bio/i).fill(bio);
  await expect(page.getByLabel(/bio/i)).toHaveValue(bio);
  const kept = await page.getByRole("img", { name: /^Couple photo \d$/ }).count();
  if (kept < 5) {
    await photoInput(page, kept > 0 ? "Add couple photos" : "More couple photos (optional)").setInputFiles(
      await noisyPhoto(testInfo.outputPath("photos"), "added.jpg", 2400, 1800),
    );
    await applyCrops(page, 1);
  }
  await page.getByRole("button", { name: "Save couple profile" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel(/bio/i)).toHaveValue(bio);
  if (kept < 5) await expect(page.getByRole("img", { name: /^Couple photo \d$/ })).toHaveCount(kept + 1);

  await page.goto("/settings/profile");
  await hydrated(page.getByLabel("Occupation"));
  await page.getByLabel("Occupation").fill("Rehearsal director");
  await page.getByRole("button", { name: /^Save/ }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Occupation")).toHaveValue("Rehearsal director");
});

test("the bell live through the edge: the stream the edge cuts resumes from its last event, with what was sent meanwhile", async ({
  browser,
}) => {
  const [a, b] = [DEMO_COUPLES[2]!.partnerA, DEMO_COUPLES[3]!.partnerA];
  const pageA = await (await browser.newContext()).newPage();
  // The bell's poll is blocked: only the stream can move it.
  await pageA.context().route("**/api/notifications/unread-count", (route) => route.abort());
  const { opened: streams, ended } = watchStreams(pageA);
  await signIn(pageA, demoEmail(a.firstName), DEMO_PASSWORD);
  await expect(pageA).toHaveURL(/\/dashboard$/);
  const bell = pageA.getByRole("button", { name: /^Notifications(, .+ unread)?$/ });
  await expect.poll(() => streams.length).toBeGreaterThanOrEqual(1);
  const unread = async () => Number(/, (\d+) unread$/.exec((await bell.getAttribute("aria-label")) ?? "")?.[1] ?? 0);
  // The stream's opening event sets the bell; give it a moment before reading the count.
  await pageA.waitForTimeout(1_000);
  const before = await unread();

  const created = await pageA.request.post("/api/forum/posts", {
    headers: { "X-CSRF-Token": await csrf(pageA) },
    data: { title: `Rehearsal live ${Date.now()}`, body: "Who is around tonight?", topic: "travel", scope: "global", photos: [] },
  });
  expect(created.status()).toBe(201);
  const postId = ((await created.json()) as { data: { id: string } }).data.id;
  const pageB = await (await browser.newContext()).newPage();
  await signIn(pageB, demoEmail(b.firstName), DEMO_PASSWORD);
  await expect(pageB).toHaveURL(/\/dashboard$/);
  const reply = async (body: string) => {
    const answer = await pageB.request.post(`/api/forum/posts/${postId}/replies`, {
      headers: { "X-CSRF-Token": await csrf(pageB) },
      data: { body },
    });
    expect(answer.status()).toBe(201);
  };
  await reply("We are!");
  await expect.poll(unread).toBe(before + 1);

  // The edge cuts the stream at its maximum duration; a reply sent at once, before the browser reconnects, still arrives.
  await expect.poll(() => ended.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
  await reply("Still there?");
  await expect.poll(unread, { timeout: 30_000 }).toBe(before + 2);
  expect(streams.length).toBeGreaterThanOrEqual(2);
  expect(streams.at(-1)).toMatch(/[?&]lastEventId=\d+$/);
});

test("messages live through the edge: a message sent while the edge has cut the thread's stream still arrives, and the stream resumes from its last event", async ({
  browser,
}) => {
  const [a, b] = [DEMO_COUPLES[4]!.partnerA, DEMO_COUPLES[5]!.partnerA];
  const pageA = await (await browser.newContext()).newPage();
  const pageB = await (await browser.newContext()).newPage();
  await signIn(pageA, demoEmail(a.firstName), DEMO_PASSWORD);
  await expect(pageA).toHaveURL(/\/dashboard$/);
  await signIn(pageB, demoEmail(b.firstName), DEMO_PASSWORD);
  await expect(pageB).toHaveURL(/\/dashboard$/);

  // A says hello to B through the API; B accepts: the conversation opens for both couples.
  const coupleOf = async (page: Page) => ((await (await page.request.get("/api/v2/auth/me")).json()) as { coupleId: string }).coupleId;
  const note = `Hello from the rehearsal ${Date.now()}`;
  const sent = await pageA.request.post("/api/connections", {
    headers: { "X-CSRF-Token": await csrf(pageA) },
    data: { coupleId: await coupleOf(pageB), note },
  });
  expect(sent.status()).toBe(201);
  const incoming = (await (await pageB.request.get("/api/connections?box=incoming")).json()) as { data: { id: string; note: string }[] };
  const request = incoming.data.find((row) => row.note === note);
  expect(request).toBeTruthy();
  const accepted = await pageB.request.post(`/api/connections/${request!.id}/accept`, { headers: { "X-CSRF-Token": await csrf(pageB) } });
  expect(accepted.status()).toBe(200);
  const { conversationId } = ((await accepted.json()) as { data: { status: string; conversationId: string } }).data;

  const { opened, ended } = watchStreams(pageA);
  await pageA.goto(`/messages/${conversationId}`);
  await expect.poll(() => opened.length).toBeGreaterThanOrEqual(1);
  const say = async (body: string) => {
    const answer = await pageB.request.post(`/api/conversations/${conversationId}/messages`, {
      headers: { "X-CSRF-Token": await csrf(pageB) },
      data: { body },
    });
    expect(answer.status()).toBe(201);
  };
  await say("First words through the edge");
  // The thread's messages (on a laptop the inbox beside it shows the last one too).
  const messages = pageA.getByTestId("message");
  await expect(messages.getByText("First words through the edge")).toBeVisible({ timeout: 30_000 });

  // The edge cuts the thread's stream at its maximum duration (the dashboard's ended with its page,
  // already counted); a message sent at once, before the browser reconnects, still arrives.
  const [openedBefore, endedBefore] = [opened.length, ended.length];
  await expect.poll(() => ended.length, { timeout: 60_000 }).toBeGreaterThan(endedBefore);
  await say("Sent while the stream was cut");
  await expect(messages.getByText("Sent while the stream was cut")).toBeVisible({ timeout: 30_000 });
  expect(opened.length).toBeGreaterThan(openedBefore);
  expect(opened.at(-1)).toMatch(/[?&]lastEventId=\d+$/);
});
