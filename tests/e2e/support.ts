import { expect, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import sharp from "sharp";

export const PASSWORD = "Sunset#Walk42";

let counter = 0;
export const uniqueEmail = (label: string) => `${label}-${Date.now()}-${process.pid}-${++counter}@e2e.example.com`;
/** API calls get their own client address, so the per-address registration limit is not shared. */
const addressHeader = () => ({ "x-forwarded-for": `198.51.100.${(Date.now() + ++counter) % 250}` });

export type Account = { email: string; password: string; firstName: string };

/** The newest e-mail to an address, from the dev outbox, and the first link in it on this site. */
export async function latestLink(request: APIRequestContext, email: string, path: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const response = await request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`);
      const { messages } = (await response.json()) as { messages: { text: string }[] };
      link = messages[0]?.text.match(new RegExp(`https?://[^\\s]+${path}\\?[^\\s]+`))?.[0];
      return link;
    })
    .toBeTruthy();
  return link!;
}

export async function registerViaApi(request: APIRequestContext, label: string): Promise<Account> {
  const account = { email: uniqueEmail(label), password: PASSWORD, firstName: "Robin" };
  const response = await request.post("/api/auth/register", {
    headers: addressHeader(),
    data: { ...account, lastName: "Hart", dateOfBirth: "1991-06-15" },
  });
  expect(response.status()).toBe(201);
  return account;
}

/** A registered account whose e-mail was verified through the link it was sent. */
export async function verifiedAccount(request: APIRequestContext, label: string): Promise<Account> {
  const account = await registerViaApi(request, label);
  const link = new URL(await latestLink(request, account.email, "/verify-email"));
  const response = await request.post("/api/email-verification/verify", {
    data: { token: link.searchParams.get("token"), email: account.email },
  });
  expect(response.status()).toBe(200);
  return account;
}

export async function signIn(page: Page, account: { email: string; password: string }) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Let's Go!" }).click();
}

/** The browser session's CSRF token, for API calls made from a signed-in page. */
export const csrfToken = async (page: Page): Promise<string> =>
  ((await (await page.request.get("/api/csrf-token")).json()) as { csrfToken: string }).csrfToken;

/** A plain JPEG of `width` x `height`, as a multipart file part. */
const jpegPart = async (name: string, width: number, height: number) =>
  new File(
    [
      new Uint8Array(
        await sharp({ create: { width, height, channels: 3, background: "#2a6f97" } })
          .jpeg()
          .toBuffer(),
      ),
    ],
    name,
    { type: "image/jpeg" },
  );

/**
 * Onboarding step 1 (the individual profile) posted from the signed-in page: a profile photo, an
 * occupation, the place `placeId` and `interests`. A couple is created only for a partner A who
 * has done it (spec section 4).
 */
async function postStep1(page: Page, placeId: string, interests: readonly string[]) {
  const step1 = new FormData();
  step1.append("occupation", "Designer");
  // The place is the provider's for the id; the name is only what the field showed.
  step1.append("locationName", "Chosen place");
  step1.append("locationPlaceId", placeId);
  for (const interest of interests) step1.append("interests[]", interest);
  step1.append("userImage", await jpegPart("me.jpg", 500, 500));
  const response = await page.request.post("/api/onboarding/step1", {
    multipart: step1,
    headers: { "X-CSRF-Token": await csrfToken(page) },
  });
  expect(response.ok()).toBe(true);
}

type SetupData = {
  userData?: Record<string, unknown>;
  coupleData: { coupleName: string; placeId: string; interests?: readonly string[] } & Record<string, unknown>;
};

/**
 * Partner A of a complete couple, made through the API (register, verify, step 1 at the couple's
 * place, one profile-completion call) and signed in in a browser context of its own; partner B is
 * still to be invited.
 */
export async function completeCouple(browser: Browser, request: APIRequestContext, label: string, { userData, coupleData }: SetupData) {
  const account = await verifiedAccount(request, label);
  const page = await (await browser.newContext()).newPage();
  await signIn(page, account);
  await expect(page).toHaveURL(/\/onboarding$/);
  // Partner A likes what the couple likes (discover weighs the partners' interests before the
  // couple's), else the first five the settings list.
  const interests = coupleData.interests ?? ["travel", "food_dining", "wine_tasting", "home_entertaining", "cooking"];
  await postStep1(page, coupleData.placeId, interests);
  const response = await page.request.post("/api/v2/profile/complete-setup", {
    headers: { "X-CSRF-Token": await csrfToken(page) },
    data: {
      userData: { firstName: account.firstName, lastName: "Hart", dateOfBirth: "1990-05-17", occupation: "Designer", ...userData },
      coupleData: { coupleTypes: ["global_adventurers"], bio: "We like long walks.", ...coupleData },
    },
  });
  expect(response.ok()).toBe(true);
  const coupleId = ((await response.json()) as { data: { id: string } }).data.id;
  return { page, account, coupleId };
}

/** Fails the test on any Content-Security-Policy violation the page reports. */
export function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

/** Opens a couple's profile from the directory's search, as a member finds them. */
export async function openProfile(who: { page: Page }, coupleName: string) {
  await who.page.goto(`/directory?q=${encodeURIComponent(coupleName.split(" ")[0]!)}`);
  await who.page.getByRole("list", { name: "Couples" }).getByRole("link").filter({ hasText: coupleName }).first().click();
  await expect(who.page.getByRole("heading", { level: 1, name: coupleName })).toBeVisible();
}

/** Says hello from the open profile of `coupleName`, with a note. */
export async function sayHello(who: { page: Page }, coupleName: string, note: string) {
  await who.page.getByRole("button", { name: `Say hello to ${coupleName}` }).click();
  const dialog = who.page.getByRole("dialog", { name: `Say hello to ${coupleName}` });
  await dialog.getByLabel("Note").fill(note);
  await dialog.getByRole("button", { name: "Send request" }).click();
  await expect(who.page.getByText("Request sent", { exact: true }).first()).toBeVisible();
}

/** The receiving couple accepts the hello waiting for them, from the inbox's requests, and lands in the conversation: its path. */
export async function acceptHello(who: { page: Page }): Promise<string> {
  await who.page.goto("/messages?tab=requests");
  await who.page.getByRole("button", { name: "Accept" }).click();
  await expect(who.page).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
  return new URL(who.page.url()).pathname;
}

/** `from` finds `to` in the directory and says hello; `to` accepts and lands in their new conversation: its path. */
export async function startConversation(from: { page: Page }, to: { page: Page; coupleName: string }, note: string): Promise<string> {
  await openProfile(from, to.coupleName);
  await sayHello(from, to.coupleName, note);
  return acceptHello(to);
}

const LISBON_PLACE = "geonames:2267057";
let fresh = 0;

/**
 * A couple of its own for a test that several people walk (partner A only, in Lisbon), signed in
 * in a browser context at `viewport`: its name's first word is unique per run (letters only), so
 * `openProfile` finds it alone, and no other spec's seeded couple is touched.
 */
export async function newCouple(
  browser: Browser,
  request: APIRequestContext,
  firstName: string,
  viewport: { width: number; height: number },
): Promise<{ page: Page; coupleName: string; firstName: string }> {
  const tag = `${Date.now().toString(36)}${process.pid.toString(36)}${fresh++}`.replace(/\d/g, (digit) => "abcdefghij"[Number(digit)]!);
  const coupleName = `${firstName}${tag} & Partner`;
  const { page } = await completeCouple(browser, request, `couple-${firstName.toLowerCase()}`, {
    userData: { firstName },
    coupleData: { coupleName, placeId: LISBON_PLACE },
  });
  await page.setViewportSize(viewport);
  return { page, coupleName, firstName };
}

/**
 * The date picker's latest date of birth, worked out apart from the app: 18 years before today
 * where the day begins first (UTC+14), so no one east of UTC is refused on their birthday.
 */
export function latestAdultBirthDate(now = Date.now()): string {
  const first = new Date(now + 14 * 3_600_000);
  return `${first.getUTCFullYear() - 18}-${String(first.getUTCMonth() + 1).padStart(2, "0")}-${String(first.getUTCDate()).padStart(2, "0")}`;
}

/**
 * A row of the moderation queue, with 'Load more' until it shows: the queue is oldest first, and
 * other walks report things too. A press before the page hydrates is lost, so each is tried again.
 */
export async function queueRow(page: Page, text: string) {
  await expect(page.getByRole("heading", { name: "Moderation", level: 1 })).toBeVisible();
  const row = page.getByRole("listitem").filter({ hasText: text }).first();
  const items = page.getByRole("listitem");
  // The reports' 'Load more' comes before the appeals'.
  const more = page.getByRole("button", { name: "Load more" }).first();
  while (!(await row.isVisible()) && (await more.isVisible())) {
    const shown = await items.count();
    await expect(async () => {
      if ((await items.count()) <= shown) await more.click();
      await expect.poll(() => items.count(), { timeout: 3_000 }).toBeGreaterThan(shown);
    }).toPass({ timeout: 20_000 });
  }
  return row;
}

const SCRIPT_CHUNKS = "**/_next/static/chunks/**";

/**
 * From now every script the page asks for waits until `release()` (`held()`: how many were asked
 * for); `stop()` lets later ones through. A lazy form's code held back while the light one is typed in.
 */
export async function holdScripts(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((done) => (release = done));
  let held = 0;
  await page.route(SCRIPT_CHUNKS, async (route) => {
    held++;
    await released;
    await route.continue();
  });
  return { held: () => held, release, stop: () => page.unroute(SCRIPT_CHUNKS) };
}
