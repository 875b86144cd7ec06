import { readFile } from "node:fs/promises";
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { expect, test } from "./test";
import sharp from "sharp";
import { axe, NARROW, noHorizontalScroll, THEMES } from "./checks";
import { PASSWORD, completeCouple, csrfToken, latestLink, signIn, uniqueEmail, verifiedAccount, type Account } from "./support";

/**
 * Settings, part two: security (password, e-mail, sessions), the data export and account
 * deletion. Couples are made through the API; the settings are used through the screens.
 */

const LISBON = "geonames:2267057";

const NEW_PASSWORD = "Harbour#Light77";

/** Partner A with a complete couple, signed in in a browser context of its own. */
async function partnerA(
  browser: Browser,
  request: APIRequestContext,
  label: string,
): Promise<{ page: Page; account: Account; coupleName: string }> {
  const coupleName = `${label} ${Date.now().toString(36)}`;
  const { page, account } = await completeCouple(browser, request, label, { coupleData: { coupleName, placeId: LISBON } });
  return { page, account, coupleName };
}

/** Partner B joined through the e-mailed invitation and completed; answers their account and API token. */
async function partnerB(a: Page, request: APIRequestContext): Promise<{ account: Account; accessToken: string }> {
  const email = uniqueEmail("partner-b");
  const invite = await a.request.post("/api/auth/send-invitation", {
    headers: { "X-CSRF-Token": await csrfToken(a) },
    data: { partner_first_name: "Thaddeus", partner_last_name: "Grant", partner_email: email },
  });
  expect(invite.ok()).toBe(true);
  const token = new URL(await latestLink(request, email, "/register")).searchParams.get("invite")!;
  const accepted = await request.post("/api/auth/invitations/accept", {
    data: { invitationToken: token, password: PASSWORD, dateOfBirth: "1991-02-03" },
  });
  expect(accepted.ok()).toBe(true);
  const accessToken = ((await accepted.json()) as { session: { access_token: string } }).session.access_token;
  const profile = await request.put("/api/v2/profile/update", {
    headers: { Authorization: `Bearer ${accessToken}` },
    data: { occupation: "Writer" },
  });
  expect(profile.ok()).toBe(true);
  return { account: { email, password: PASSWORD, firstName: "Thaddeus" }, accessToken };
}

async function post(
  request: APIRequestContext | Page["request"],
  headers: Record<string, string>,
  title: string,
  photos: string[] = [],
): Promise<string> {
  const response = await request.post("/api/forum/posts", {
    headers,
    data: { title, body: `${title}: the long way round.`, topic: "travel", scope: "global", photos },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

test.describe("settings: security", () => {
  test("a password change ends the session in a second browser; an e-mail change takes effect only after its link", async ({
    browser,
    request,
  }) => {
    // Two browsers, two sign-ins and two e-mails' links: it ran out of 60 s once beside another walk on two cores.
    test.setTimeout(120_000);
    const { page, account } = await partnerA(browser, request, "security");
    const second = await (await browser.newContext()).newPage();
    await signIn(second, account);
    await expect(second).toHaveURL(/\/forum$|\/dashboard$|\/profile$/);

    await page.goto("/settings/security");
    await expect(page.getByRole("heading", { level: 1, name: "Security" })).toBeVisible();
    const sessions = page.getByRole("list", { name: "Active sessions" });
    await expect(sessions.getByRole("listitem")).toHaveCount(2);
    await expect(sessions.getByText("This device")).toBeVisible();

    await page.getByLabel("Current password").fill(account.password);
    await page.getByLabel("New password", { exact: true }).fill("weak");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText("Password must be at least 8 characters")).toBeVisible();
    // Focus goes to the first refused field, which says why (a screen reader hears it).
    await expect(page.getByLabel("New password", { exact: true })).toBeFocused();
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel("Confirm new password").fill(NEW_PASSWORD);
    // A wrong current password is the server's answer, on its field, focused too.
    await page.getByLabel("Current password").fill(`${account.password}x`);
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText("That password is not correct.")).toBeVisible();
    await expect(page.getByLabel("Current password")).toBeFocused();
    await page.getByLabel("Current password").fill(account.password);
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText("Your password was changed. Every other session has been signed out.")).toBeVisible();
    await expect(sessions.getByRole("listitem")).toHaveCount(1);

    // The second browser is signed out; this one is not.
    await second.goto("/settings/security");
    await expect(second).toHaveURL(/\/login/);
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "Security" })).toBeVisible();

    const newEmail = uniqueEmail("moved");
    await page.getByLabel("New email").fill(newEmail);
    await page.getByLabel("Password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Send confirmation link" }).click();
    await expect(page.getByText(`We sent a link to ${newEmail}.`)).toBeVisible();
    await page.reload();
    await expect(page.getByText(`You sign in with ${account.email}.`)).toBeVisible();

    const link = await latestLink(request, newEmail, "/settings/confirm-email");
    await page.goto(link);
    await page.getByRole("button", { name: "Confirm my new email" }).click();
    await expect(page.getByText(`Your email is now ${newEmail}.`)).toBeVisible();
    await page.goto("/settings/security");
    await expect(page.getByText(`You sign in with ${newEmail}.`)).toBeVisible();
    await page.context().close();
    await second.context().close();
  });
});

test.describe("settings: your data", () => {
  test("the export holds the person's post and no secret; deleting partner B, then the last partner", async ({ browser, request }) => {
    // A couple made through the UI, then an export and two deletions: 50 s at a whole run's load.
    test.setTimeout(120_000);
    const a = await partnerA(browser, request, "data");
    const b = await partnerB(a.page, request);
    const bearer = { Authorization: `Bearer ${b.accessToken}` };

    // B's post with a photo of B's.
    const jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#2d6a4f" } })
      .jpeg()
      .toBuffer();
    const upload = await request.post("/api/forum/photos", {
      headers: bearer,
      multipart: { photo: { name: "p.jpg", mimeType: "image/jpeg", buffer: jpeg } },
    });
    expect(upload.status()).toBe(201);
    const photoUrl = ((await upload.json()) as { data: { url: string } }).data.url;
    const bPost = await post(request, bearer, "Thaddeus's ferry notes", [photoUrl]);
    expect((await request.get(photoUrl)).status()).toBe(200);
    const aPost = await post(a.page.request, { "X-CSRF-Token": await csrfToken(a.page) }, "Our first trip");
    // Another couple replies to it.
    const other = await partnerA(browser, request, "other");
    const reply = await other.page.request.post(`/api/forum/posts/${aPost}/replies`, {
      headers: { "X-CSRF-Token": await csrfToken(other.page) },
      data: { body: "We took that ferry too!" },
    });
    expect(reply.status()).toBe(201);

    // B, in a browser: the export, then the deletion.
    const page = await (await browser.newContext()).newPage();
    await signIn(page, b.account);
    await expect(page).not.toHaveURL(/\/login/);
    await page.goto("/settings/data");
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download my data" }).click();
    const file = await (await downloading).path();
    const text = await readFile(file, "utf8");
    const data = JSON.parse(text) as { posts: { title: string }[]; profile: { email: string } };
    expect(data.profile.email).toBe(b.account.email);
    expect(data.posts.map((p) => p.title)).toEqual(["Thaddeus's ferry notes"]);
    expect(text).not.toMatch(/password|token|hash|\$argon2/i);

    await expect(page.getByText("Your partner keeps your couple profile on their own.")).toBeVisible();
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Delete my account" }).click();
    await expect(page.getByText("Please type DELETE to confirm")).toBeVisible();
    await expect(page.getByLabel("Type DELETE to confirm")).toBeFocused();
    await page.getByLabel("Type DELETE to confirm").fill("DELETE");
    // What the pages keep in this browser (ids, a place search, a form's progress) goes with the account; the theme stays.
    await page.evaluate(() => {
      localStorage.setItem("user_id", "someone");
      localStorage.setItem("location_search_cache_x", "[]");
      localStorage.setItem("theme", "light");
      sessionStorage.setItem("registration_flow_state", "{}");
    });
    await page.getByRole("button", { name: "Delete my account" }).click();
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByText("Your account was deleted.")).toBeVisible();
    expect(await page.evaluate(() => [Object.keys(localStorage), Object.keys(sessionStorage)])).toEqual([["theme"], []]);
    expect((await request.get(photoUrl)).status()).toBe(404);

    // A's couple stays, 'Beta Member', with B's post signed "Deleted member".
    await a.page.goto("/profile");
    await expect(a.page.getByText("Beta Member")).toBeVisible();
    await a.page.goto(`/forum/post/${bPost}`);
    await expect(a.page.getByRole("heading", { name: "Thaddeus's ferry notes" })).toBeVisible();
    await expect(a.page.getByText("Deleted member").first()).toBeVisible();

    // A, the last partner: the couple goes too, its posts stay, and the address can register again.
    await a.page.goto("/settings/data");
    await expect(a.page.getByText("You are the only partner, so your couple profile and its photos are deleted too.")).toBeVisible();
    await a.page.getByLabel("Password", { exact: true }).fill(a.account.password);
    await a.page.getByLabel("Type DELETE to confirm").fill("DELETE");
    await a.page.getByRole("button", { name: "Delete my account" }).click();
    await expect(a.page).toHaveURL(/\/login/);
    const again = await request.post("/api/auth/register", {
      headers: { "x-forwarded-for": "198.51.100.77" },
      data: { email: a.account.email, password: PASSWORD, firstName: "Robin", lastName: "Hart", dateOfBirth: "1991-06-15" },
    });
    expect(again.status()).toBe(201);

    // The thread the couple started stays for the other couple, with their reply: its author is
    // "Deleted member", beside the placeholder face, linking to no profile.
    await other.page.goto(`/forum/post/${aPost}`);
    const thread = other.page.getByRole("article");
    await expect(thread.getByRole("heading", { name: "Our first trip" })).toBeVisible();
    await expect(thread.getByText("Deleted member", { exact: true })).toBeVisible();
    await expect(thread.getByTestId("face-placeholder")).toBeVisible();
    await expect(thread.getByRole("link", { name: /Deleted member/ })).toHaveCount(0);
    const theirs = other.page.getByRole("listitem", { name: `Reply by ${other.account.firstName} of ${other.coupleName}` });
    await expect(theirs.getByText("We took that ferry too!")).toBeVisible();
    await page.context().close();
    await a.page.context().close();
    await other.page.context().close();
  });

  test("an account that stopped at step 1 downloads its data and deletes itself from onboarding, at 360 px in both themes", async ({
    page,
    request,
  }) => {
    const account = await verifiedAccount(request, "early");
    await page.setViewportSize(NARROW);
    await signIn(page, account);
    await expect(page).toHaveURL(/\/onboarding$/);
    await page.getByRole("link", { name: "Your data and account" }).click();
    await expect(page).toHaveURL(/\/onboarding\/account$/);
    await expect(page.getByRole("heading", { name: "Your data", level: 1 })).toBeVisible();
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
      await axe(page, `onboarding account, ${theme}`);
      await noHorizontalScroll(page);
    }

    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download my data" }).click();
    const data = JSON.parse(await readFile(await (await downloading).path(), "utf8")) as { profile: { email: string }; couple: null };
    expect(data.profile.email).toBe(account.email);
    expect(data.couple).toBeNull();

    // No couple yet: nothing is said about one.
    await expect(page.getByText("Your profile, your sessions, your notifications")).toBeVisible();
    await expect(page.getByText(/couple profile/)).toHaveCount(0);
    await page.getByLabel("Password", { exact: true }).fill(account.password);
    await page.getByLabel("Type DELETE to confirm").fill("DELETE");
    await page.getByRole("button", { name: "Delete my account" }).click();
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByText("Your account was deleted.")).toBeVisible();
    await signIn(page, account);
    await expect(page.getByText("Invalid email or password. Please try again.")).toBeVisible();
  });
});

test.describe("settings: notifications", () => {
  test("the unsubscribe link works once without signing in; the choices save; every page passes axe at 360 px in both themes", async ({
    browser,
    request,
  }) => {
    // A couple made through the UI, then every settings page at 360 px in both themes with axe.
    test.setTimeout(120_000);
    const a = await partnerA(browser, request, "notify");
    await partnerB(a.page, request);
    // B joining sent A a 'partner joined' e-mail (e-mail is on by default) with its unsubscribe link.
    const link = await latestLink(request, a.account.email, "/unsubscribe");

    for (const theme of THEMES) {
      const visitorContext = await browser.newContext({ viewport: NARROW, colorScheme: theme });
      await visitorContext.addInitScript((chosen) => window.localStorage.setItem("theme", chosen), theme);
      const visitor = await visitorContext.newPage();
      await visitor.goto(link);
      await expect(visitor.getByRole("heading", { name: "Unsubscribe from these e-mails" })).toBeVisible();
      await noHorizontalScroll(visitor);
      await axe(visitor);
      await visitor.getByRole("button", { name: "Unsubscribe" }).click();
      await expect(
        visitor.getByText(
          theme === "light"
            ? "You will no longer get e-mails for: Partner joined."
            : "This unsubscribe link has already been used or is not valid.",
          { exact: false },
        ),
      ).toBeVisible();
      await visitorContext.close();
    }

    await a.page.goto("/settings/notifications");
    const joined = a.page.getByRole("group", { name: "Partner joined" });
    await expect(joined.getByLabel("By e-mail")).not.toBeChecked();
    await expect(joined.getByLabel("In the app")).toBeChecked();
    const replies = a.page.getByRole("group", { name: "Replies" });
    await expect(replies.getByLabel("By e-mail")).toBeChecked();
    await replies.getByLabel("By e-mail").uncheck();
    await a.page.getByRole("button", { name: "Save notification choices" }).click();
    await expect(a.page.getByText("Your notification choices were saved.")).toBeVisible();
    await a.page.reload();
    await expect(a.page.getByRole("group", { name: "Replies" }).getByLabel("By e-mail")).not.toBeChecked();

    const state = await a.page.context().storageState();
    for (const theme of THEMES) {
      const context = await browser.newContext({ viewport: NARROW, colorScheme: theme, storageState: state });
      await context.addInitScript((chosen) => window.localStorage.setItem("theme", chosen), theme);
      const page = await context.newPage();
      for (const path of ["/settings/security", "/settings/notifications", "/settings/data", "/settings/confirm-email?token=made-up"]) {
        await page.goto(path);
        await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        if (path === "/settings/security")
          await expect(page.getByRole("list", { name: "Active sessions" }).getByRole("listitem").first()).toBeVisible();
        await noHorizontalScroll(page);
        await axe(page);
      }
      await context.close();
    }
    await a.page.context().close();
  });
});
