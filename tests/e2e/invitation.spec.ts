import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./test";
import sharp from "sharp";
import { latestAdultBirthDate, latestLink, PASSWORD, signIn, uniqueEmail, verifiedAccount, watchCsp, type Account } from "./support";

const jpeg = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .jpeg()
    .toBuffer();
const imagePart = async (name: string, width: number, height: number) =>
  new File([new Uint8Array(await jpeg(width, height, "#2a6f97"))], name, { type: "image/jpeg" });

/**
 * Partner A with a finished couple: registered and verified through the API, signed in on the
 * page, then both onboarding steps posted with the page's own cookie and CSRF token.
 */
async function partnerAWithCouple(page: Page, request: APIRequestContext): Promise<Account> {
  const account = await verifiedAccount(request, "partner-a");
  await signIn(page, account);
  await expect(page).toHaveURL(/\/onboarding$/);
  const { csrfToken } = (await (await page.request.get("/api/csrf-token")).json()) as { csrfToken: string };
  const headers = { "X-CSRF-Token": csrfToken };

  const search = (await (await page.request.get("/api/locations/search/public?query=Lisbon&limit=1")).json()) as {
    data: { predictions: { place_id: string; description: string }[] };
  };
  const place = search.data.predictions[0]!;
  const step1 = new FormData();
  step1.append("occupation", "Architect");
  step1.append("locationName", place.description);
  step1.append("locationPlaceId", place.place_id);
  for (const interest of ["travel", "food_dining", "wine_tasting", "music", "reading"]) step1.append("interests[]", interest);
  step1.append("userImage", await imagePart("user.jpg", 500, 500));
  expect((await page.request.post("/api/onboarding/step1", { multipart: step1, headers })).ok()).toBe(true);

  const step2 = new FormData();
  step2.append("couple_name", "Robin & Thaddeus");
  for (const type of ["global_adventurers", "culture_curators"]) step2.append("coupleTypes[]", type);
  step2.append("bio", "We cycle, we cook, and we argue about maps.");
  step2.append("coupleProfileImage", await imagePart("couple.jpg", 600, 600));
  step2.append("couplePhotos", await imagePart("extra.jpg", 800, 600));
  expect((await page.request.post("/api/onboarding/step2", { multipart: step2, headers })).ok()).toBe(true);
  return account;
}

/** The invitation link from the partner's newest e-mail in the dev outbox. */
async function invitationLinkFor(request: APIRequestContext, email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const { messages } = (await (await request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`)).json()) as {
        messages: { text: string }[];
      };
      link = messages[0]?.text.match(/https?:\/\/\S+\/register\?invite=[\w-]+/)?.[0];
      return link;
    })
    .toBeTruthy();
  return link!;
}

/** An account registered on its own for this address (not by invitation), verified through its e-mail. */
async function registerAndVerify(request: APIRequestContext, email: string) {
  const registered = await request.post("/api/auth/register", {
    headers: { "x-forwarded-for": `203.0.113.${Date.now() % 250}` },
    data: { email, password: PASSWORD, firstName: "Sam", lastName: "Rivera", dateOfBirth: "1992-03-04" },
  });
  expect(registered.status()).toBe(201);
  const link = new URL(await latestLink(request, email, "/verify-email"));
  const verified = await request.post("/api/email-verification/verify", { data: { token: link.searchParams.get("token"), email } });
  expect(verified.status()).toBe(200);
}

/** The page's next server action call fails as a dropped connection would; later ones go through. */
async function dropNextServerAction(page: Page) {
  let dropped = false;
  await page.route("**/*", (route) => {
    const request = route.request();
    if (!dropped && request.method() === "POST" && request.headers()["next-action"]) {
      dropped = true;
      return route.abort("internetdisconnected");
    }
    return route.fallback();
  });
}

async function fillInvite(page: Page, partner: { first: string; last: string; email: string }) {
  await page.getByLabel("Partner's first name").fill(partner.first);
  await page.getByLabel("Partner's last name").fill(partner.last);
  await page.getByLabel("Partner's email").fill(partner.email);
}

test("after onboarding through the REST calls with the page's cookie, /profile opens without a detour to /onboarding", async ({
  page,
  request,
}) => {
  await partnerAWithCouple(page, request);
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByText("Robin & Thaddeus").first()).toBeVisible();
});

test.describe("partner invitation", () => {
  test("partner A invites, copies the link; partner B joins from the e-mail and lands on onboarding", async ({
    page,
    request,
    browser,
    context,
  }) => {
    // Two people and the e-mail between them: about 50 s alone, past 60 beside another walk on two cores.
    test.setTimeout(120_000);
    const csp = watchCsp(page);
    const partnerA = await partnerAWithCouple(page, request);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto("/invite-partner");
    await expect(page.getByRole("heading", { name: "Invite your partner" })).toBeVisible();
    await expect(page.getByText("7 days to join you")).toBeVisible();

    // Every rule, with its spec message, before anything is sent.
    await page.getByRole("button", { name: "Send Invitation" }).click();
    await expect(page.getByText("Please enter your partner's first name")).toBeVisible();
    await expect(page.getByText("Please enter your partner's last name")).toBeVisible();
    await expect(page.getByText("Please enter a valid email address")).toBeVisible();
    await fillInvite(page, { first: "Thaddeus", last: "Grant", email: partnerA.email.toUpperCase() });
    await page.getByLabel("Partner's email").blur();
    await expect(page.getByText("You cannot invite yourself. Please enter your partner's email.")).toBeVisible();

    // A dropped connection: the spec's fallback, and the form can be sent again.
    const partnerEmail = uniqueEmail("partner-b");
    await page.getByLabel("Partner's email").fill(partnerEmail);
    await dropNextServerAction(page);
    await page.getByRole("button", { name: "Send Invitation" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Failed to send invitation" })).toBeVisible();
    await page.getByRole("button", { name: "Send Invitation" }).click();

    const sent = page.getByRole("heading", { name: "They're In the Loop!" });
    await expect(sent).toBeVisible();
    await expect(sent).toBeFocused();
    await expect(page.getByText(`We sent an invitation to Thaddeus Grant at ${partnerEmail}. They have 7 days to join you.`)).toBeVisible();
    const shareable = page.getByLabel("Shareable invitation link");
    await expect(shareable).toHaveAttribute("readonly", "");
    const link = await shareable.inputValue();
    expect(link).toMatch(/^http:\/\/localhost:\d+\/register\?invite=[\w-]{43}$/);
    await page.getByRole("button", { name: "Copy link" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    // The e-mail carries a link of its own (it proves the address; the shareable one does not); sending again to the same address is refused.
    const emailed = await invitationLinkFor(request, partnerEmail);
    expect(emailed).toMatch(/^http:\/\/localhost:\d+\/register\?invite=[\w-]{43}$/);
    expect(emailed).not.toBe(link);
    await page.getByRole("button", { name: "Send Another Invitation" }).click();
    await expect(page.getByLabel("Partner's first name")).toBeFocused();
    await expect(page.getByLabel("Partner's email")).toHaveValue("");
    await fillInvite(page, { first: "Thaddeus", last: "Grant", email: partnerEmail });
    await page.getByRole("button", { name: "Send Invitation" }).click();
    await expect(page.getByText("An invitation has already been sent to this email.")).toBeVisible();

    // Partner B, in a browser of their own, opens the e-mailed link.
    const partnerB = await browser.newContext();
    const pageB = await partnerB.newPage();
    const cspB = watchCsp(pageB);
    await pageB.goto(emailed);
    await expect(pageB.getByRole("heading", { name: "Welcome, Thaddeus!" })).toBeVisible();
    await expect(pageB.getByText("Robin has invited you to join", { exact: true })).toBeVisible();
    await expect(pageB.getByText(partnerEmail)).toBeVisible();

    const checklist = pageB.getByRole("list", { name: "Password requirements" });
    await expect(checklist.getByRole("listitem")).toHaveCount(5);
    const password = pageB.getByLabel("Password", { exact: true });
    await password.fill("abcdefgh");
    await expect(pageB.getByText("Password strength:")).toContainText("Weak");
    await expect(checklist.getByText("At least one lowercase letter (met)")).toBeAttached();
    await expect(checklist.getByText("At least one uppercase letter (not met)")).toBeAttached();
    const dob = pageB.getByLabel("Date of Birth");
    const today = new Date();
    await expect(dob).toHaveAttribute("max", latestAdultBirthDate());
    await dob.fill(`${today.getUTCFullYear() - 10}-01-01`);
    await dob.blur();
    await expect(pageB.getByText("You must be at least 18 years old")).toBeVisible();

    await password.fill(PASSWORD);
    await expect(pageB.getByText("Password strength:")).toContainText("Strong");
    await expect(checklist.getByText("(met)", { exact: true })).toHaveCount(5);
    await pageB.getByLabel("Confirm Password").fill(PASSWORD);
    await dob.fill("1991-07-08");
    await dropNextServerAction(pageB);
    await pageB.getByRole("button", { name: "Join the Adventure!" }).click();
    await expect(pageB.getByRole("alert").filter({ hasText: "Registration failed" })).toBeVisible();
    // The e-mailed link proves the address: partner B is signed in at once.
    await pageB.getByRole("button", { name: "Join the Adventure!" }).click();
    await expect(pageB).toHaveURL(/\/onboarding$/);
    await expect(pageB.getByRole("heading", { name: "Tell us about yourself" })).toBeVisible();

    // Partner setup: what partner A set up, then partner B's own details with a photo shrunk in the browser.
    await pageB.goto("/partner-setup");
    await expect(pageB.getByRole("heading", { name: "Welcome to Robin & Thaddeus!" })).toBeVisible();
    await expect(pageB.getByText("Robin already set up most of your couple profile.")).toBeVisible();
    await expect(pageB.getByText("Couple name: Robin & Thaddeus")).toBeVisible();
    await expect(pageB.getByText("Couple photos: 2 photos")).toBeVisible();
    await expect(pageB.getByLabel("First Name")).toHaveValue("Thaddeus");
    await expect(pageB.getByLabel("Date of Birth")).toHaveValue("1991-07-08");
    const photo = pageB.getByLabel("Profile Photo (optional)");
    await photo.setInputFiles({ name: "broken.jpg", mimeType: "image/jpeg", buffer: Buffer.from("not really a jpeg") });
    await expect(pageB.getByText("Failed to process image")).toBeVisible();
    await photo.setInputFiles({ name: "me.jpg", mimeType: "image/jpeg", buffer: await jpeg(1600, 1200, "#c05621") });
    const preview = pageB.getByRole("img", { name: "Your profile photo preview" });
    await expect(preview).toBeVisible();
    expect(await preview.evaluate((img: HTMLImageElement) => Math.max(img.naturalWidth, img.naturalHeight))).toBe(400);
    // Removing lets go of the file and leaves the keyboard on the file input.
    await pageB.getByRole("button", { name: "Remove photo" }).click();
    await expect(preview).toHaveCount(0);
    await expect(photo).toBeFocused();
    expect(await photo.evaluate((input: HTMLInputElement) => input.files?.length)).toBe(0);
    await photo.setInputFiles({ name: "me.jpg", mimeType: "image/jpeg", buffer: await jpeg(1600, 1200, "#c05621") });
    await expect(preview).toBeVisible();
    await pageB.getByLabel("Occupation (optional)").fill("Chef");
    await dropNextServerAction(pageB);
    await pageB.getByRole("button", { name: "Complete Setup" }).click();
    await expect(pageB.getByRole("alert").filter({ hasText: "Failed to complete setup" })).toBeVisible();
    // With an occupation the profile is complete: the dashboard, with a welcome to the couple.
    await pageB.getByRole("button", { name: "Complete Setup" }).click();
    await expect(pageB).toHaveURL(/\/dashboard\?welcome=partner$/);
    await expect(pageB.getByText(/^Welcome to .+!$/)).toBeVisible();

    // The used link (either of the two) is invalid now, on both routes.
    const token = new URL(emailed).searchParams.get("invite")!;
    await pageB.goto(`/invitation/accept?token=${token}`);
    await expect(pageB.getByRole("heading", { name: "Invalid Invitation" })).toBeVisible();
    await pageB.goto(link);
    await expect(pageB.getByRole("heading", { name: "Invalid Invitation" })).toBeVisible();
    expect([...csp, ...cspB]).toEqual([]);
    await partnerB.close();

    // The couple is complete: partner A has nobody left to invite.
    await page.reload();
    await expect(page.getByRole("heading", { name: "You're both here" })).toBeVisible();
  });

  test("partner A leaves for the dashboard by the skip link or after sending, with registration marked complete", async ({
    page,
    request,
    browser,
  }) => {
    await partnerAWithCouple(page, request);
    await page.goto("/invite-partner");
    await page.getByRole("link", { name: "I'll loop them in later" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    const flags = () =>
      page.evaluate(() => [sessionStorage.getItem("registration_completed"), sessionStorage.getItem("bypass_profile_check")]);
    expect(await flags()).toEqual(["true", "true"]);
    // The invite page was replaced in the history.
    await page.goBack();
    await expect(page).not.toHaveURL(/\/invite-partner$/);

    await page.goto("/invite-partner");
    await page.evaluate(() => sessionStorage.clear());
    await fillInvite(page, { first: "Sam", last: "Rivera", email: uniqueEmail("later") });
    await page.getByRole("button", { name: "Send Invitation" }).click();
    const token = new URL(await page.getByLabel("Shareable invitation link").inputValue()).searchParams.get("invite")!;

    // The same invitation opens on /invitation/accept too (token or invite parameter).
    const partnerB = await browser.newContext();
    const pageB = await partnerB.newPage();
    await pageB.goto(`/invitation/accept?token=${token}`);
    await expect(pageB.getByRole("heading", { name: "Welcome, Sam!" })).toBeVisible();
    await expect(pageB.getByRole("button", { name: "Join the Adventure!" })).toBeVisible();
    await partnerB.close();

    await page.getByRole("button", { name: "Go to Dashboard" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(await flags()).toEqual(["true", "true"]);
  });

  test("the shareable link makes an account that verifies its e-mail, with the password its mailbox's owner chooses, before anything else", async ({
    page,
    request,
    browser,
  }) => {
    await partnerAWithCouple(page, request);
    await page.goto("/invite-partner");
    const partnerEmail = uniqueEmail("shared");
    await fillInvite(page, { first: "Kai", last: "Moreno", email: partnerEmail });
    await page.getByRole("button", { name: "Send Invitation" }).click();
    const shareable = await page.getByLabel("Shareable invitation link").inputValue();

    const partnerB = await browser.newContext();
    const pageB = await partnerB.newPage();
    await pageB.goto(shareable);
    await expect(pageB.getByRole("heading", { name: "Welcome, Kai!" })).toBeVisible();
    await pageB.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await pageB.getByLabel("Confirm Password").fill(PASSWORD);
    await pageB.getByLabel("Date of Birth").fill("1993-11-20");
    await pageB.getByRole("button", { name: "Join the Adventure!" }).click();
    await expect(pageB).toHaveURL(/\/verify-email\?/);
    expect(new URL(pageB.url()).searchParams.get("email")).toBe(partnerEmail);
    await expect(pageB.getByRole("heading", { name: "Check Your Email" })).toBeVisible();

    // Not signed in, and signing in waits for the e-mail.
    await pageB.goto("/onboarding");
    await expect(pageB).toHaveURL(/\/login\?/);
    await signIn(pageB, { email: partnerEmail, password: PASSWORD });
    await expect(pageB.getByText("Please verify your email address before logging in.")).toBeVisible();

    // Whoever held the shareable link chose that password: opening the e-mail's link asks the mailbox's owner for theirs.
    const ownPassword = "Mailbox#Owner7";
    await pageB.goto(await latestLink(request, partnerEmail, "/verify-email"));
    await expect(pageB.getByRole("heading", { name: "Choose your password" })).toBeVisible();
    await pageB.getByLabel("Password", { exact: true }).fill(ownPassword);
    await pageB.getByLabel("Confirm Password").fill(ownPassword);
    await pageB.getByRole("button", { name: "Confirm my email" }).click();
    await expect(pageB.getByText("Email verified successfully! Redirecting to onboarding...")).toBeVisible();
    await expect(pageB).toHaveURL(/\/login/, { timeout: 10_000 });
    await signIn(pageB, { email: partnerEmail, password: PASSWORD });
    await expect(pageB.getByText("Invalid email or password. Please try again.")).toBeVisible();
    await signIn(pageB, { email: partnerEmail, password: ownPassword });
    await expect(pageB).toHaveURL(/\/onboarding$/);

    // Partner set-up without an occupation leaves the profile incomplete: back to onboarding, not the dashboard.
    await pageB.goto("/partner-setup");
    await pageB.getByRole("button", { name: "Complete Setup" }).click();
    await expect(pageB).toHaveURL(/\/onboarding$/);
    await partnerB.close();
  });

  test("an invited partner who has an account signs in from the link and joins with one button", async ({ page, request, browser }) => {
    await partnerAWithCouple(page, request);
    await page.goto("/invite-partner");
    const partnerEmail = uniqueEmail("has-account");
    await fillInvite(page, { first: "Sam", last: "Rivera", email: partnerEmail });
    await page.getByRole("button", { name: "Send Invitation" }).click();
    await expect(page.getByRole("heading", { name: "They're In the Loop!" })).toBeVisible();
    const emailed = await invitationLinkFor(request, partnerEmail);
    // Partner B signs up on their own before opening the invitation.
    await registerAndVerify(request, partnerEmail);

    const partnerB = await browser.newContext();
    const pageB = await partnerB.newPage();
    await pageB.goto(emailed);
    await pageB.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await pageB.getByLabel("Confirm Password").fill(PASSWORD);
    await pageB.getByLabel("Date of Birth").fill("1992-03-04");
    await pageB.getByRole("button", { name: "Join the Adventure!" }).click();
    await expect(
      pageB.getByRole("alert").filter({ hasText: "An account with this email already exists. Please sign in instead." }),
    ).toBeVisible();
    await pageB.getByRole("link", { name: "Sign in to join" }).click();

    await expect(pageB).toHaveURL(/\/login\?/);
    await expect(pageB.getByLabel("Email")).toHaveValue(partnerEmail);
    await pageB.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await pageB.getByRole("button", { name: "Let's Go!" }).click();
    // Back on the invitation, now signed in as the invited address.
    const { pathname, search } = new URL(emailed);
    await expect(pageB).toHaveURL((url) => url.pathname + url.search === pathname + search);
    await expect(pageB.getByText(`You're signed in as ${partnerEmail}`)).toBeVisible();
    await pageB.getByRole("button", { name: "Join Robin & Thaddeus" }).click();
    await expect(pageB).toHaveURL(/\/onboarding$/);
    await partnerB.close();

    await page.goto("/invite-partner");
    await expect(page.getByRole("heading", { name: "You're both here" })).toBeVisible();
  });

  test("bad and damaged links get the 'Invalid Invitation' screen on both routes", async ({ page }) => {
    for (const bad of [
      "/register?invite=not-a-real-token",
      // Emptied: Next's route conditions ignore an empty value, so the guard does not send it on.
      "/register?invite=",
      "/invitation/accept?invite=damaged-link",
      "/invitation/accept?token=damaged-link",
    ]) {
      await page.goto(bad);
      await expect(page.getByRole("heading", { name: "Invalid Invitation" })).toBeVisible();
      await expect(page.getByText("This invitation link is invalid or has expired.")).toBeVisible();
      await expect(page.getByRole("heading", { name: "Invitation Link Issue" })).toHaveCount(0);
    }
    await page.getByRole("link", { name: "Go to Registration" }).click();
    await expect(page).toHaveURL(/\/register$/);
    await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();

    await page.goto("/invitation/accept");
    await expect(page).toHaveURL(/\/register$/);
  });
});
