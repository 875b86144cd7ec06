import { mkdir } from "node:fs/promises";
import type { Browser, APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./test";
import sharp from "sharp";
import { completeCouple } from "./support";

/**
 * The forum, walked by couples made through the API (register, verify, one profile-completion
 * call with their place) and then used through the screens only.
 */

/** Places of the offline gazetteer: Lisbon; Algueirão, 20 km away; Póvoa de Varzim, 298 km away. */
const LISBON = "geonames:2267057";
const NEAR = "geonames:2271977";
const FAR = "geonames:2735787";

type Couple = { page: Page; coupleName: string; firstName: string };

let made = 0;
/** A complete couple (partner A only) signed in in a browser context of its own. */
async function couple(browser: Browser, request: APIRequestContext, first: string, placeId: string): Promise<Couple> {
  // Letters only in the first word, unique per run: typing it after '@' finds this couple alone.
  const tag = `${Date.now().toString(36)}${made++}`.replace(/\d/g, (digit) => "abcdefghij"[Number(digit)]!);
  const coupleName = `${first}${tag} & ${["Rui", "Ana", "Leo", "Mia", "Tom"][made % 5]}`;
  const { page } = await completeCouple(browser, request, `forum-${first.toLowerCase()}`, {
    userData: { firstName: first, bio: "Hi." },
    coupleData: { coupleName, placeId },
  });
  return { page, coupleName, firstName: first };
}

async function photo(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = `${dir}/forum.jpg`;
  await sharp({ create: { width: 800, height: 600, channels: 3, background: "#2d6a4f" } })
    .jpeg()
    .toFile(path);
  return path;
}

async function publish(page: Page, post: { title: string; body: string; scope: "Global" | "Local"; photo?: string }) {
  await page.goto(post.scope === "Local" ? "/forum/local" : "/forum");
  await page.getByRole("button", { name: "New Post" }).click();
  const composer = page.getByRole("form", { name: "New Post" });
  await expect(composer.getByLabel("Title")).toBeFocused();
  await composer.getByLabel("Title").fill(post.title);
  await composer.getByLabel("Topic").selectOption({ label: "Travel" });
  await composer.getByLabel("Your post").fill(post.body);
  if (post.photo) {
    const picker = composer.getByRole("group", { name: "Photos" }).locator('input[type="file"]');
    await picker.setInputFiles(post.photo);
    await expect(composer.getByRole("img", { name: "Photo 1" })).toBeVisible();
    // Removed, its button goes with it: the keyboard lands on the picker, and the photo is picked again.
    await composer.getByRole("button", { name: "Remove photo 1" }).click();
    await expect(picker).toBeFocused();
    await picker.setInputFiles(post.photo);
    await expect(composer.getByRole("img", { name: "Photo 1" })).toBeVisible();
  }
  await composer.getByRole("radio", { name: post.scope }).check();
  await composer.getByRole("button", { name: "Publish Post" }).click();
  await expect(page).toHaveURL(/\/forum\/post\/[0-9a-f-]+$/);
  await expect(page.getByRole("heading", { level: 1, name: post.title })).toBeVisible();
}

const bell = (page: Page) => page.getByRole("button", { name: /^Notifications(, .+ unread)?$/ });

test.describe("forum", () => {
  test("a post with a photo, found by a word of its body, a reply that mentions, a reaction; the bell leads to the reply; report, then block", async ({
    browser,
    request,
  }, testInfo) => {
    test.setTimeout(180_000);
    const [a, b] = [await couple(browser, request, "Ines", LISBON), await couple(browser, request, "Joao", LISBON)];
    const word = `zephyr${Date.now().toString(36)}`;
    const title = `Weekend in Sintra ${word.slice(-4)}`;

    await publish(a.page, {
      title,
      body: `We found a quiet ${word} trail above the palace.\n\nWho wants to join?`,
      scope: "Global",
      photo: await photo(testInfo.outputPath("images")),
    });
    await expect(a.page.getByRole("img", { name: /^Photo 1 of 1/ })).toBeVisible();
    const postUrl = a.page.url();

    // A edits the post in place, with the composer's limits and counters; within the first 5 minutes no "edited" marker.
    const postMenu = a.page.locator('summary[aria-label="Post actions"]');
    await postMenu.click();
    await a.page.getByRole("button", { name: "Edit", exact: true }).click();
    const editor = a.page.getByRole("form", { name: "Edit post" });
    await expect(editor.getByLabel("Title")).toBeFocused();
    await expect(editor.getByText(`${title.length} / 150 characters`)).toBeVisible();
    await editor.getByLabel("Title").fill("x".repeat(151));
    await expect(editor.getByText("151 / 150 characters")).toBeVisible();
    await editor.getByRole("button", { name: "Save Changes" }).click();
    await expect(editor.getByText("Title must be no more than 150 characters")).toBeVisible();
    await editor.getByLabel("Title").fill(`${title} updated`);
    await editor.getByLabel("Topic").selectOption({ label: "Outdoors" });
    await editor.getByLabel("Your post").press("Control+End");
    await editor.getByLabel("Your post").pressSequentially(" Bring water.");
    await editor.getByRole("button", { name: "Save Changes" }).click();
    await expect(a.page.getByRole("heading", { level: 1, name: `${title} updated` })).toBeVisible();
    await expect(a.page.getByRole("article").getByText("Outdoors", { exact: true })).toHaveText("Outdoors");
    await expect(a.page.getByText("Who wants to join? Bring water.")).toBeVisible();
    await expect(postMenu).toBeFocused();
    await expect(a.page.getByRole("article").getByText("· edited", { exact: true })).toHaveCount(0);
    // A post its author edited hours after posting shows the marker (the demo data's Japan route).
    await a.page.goto("/forum?q=spreadsheet");
    await a.page.getByRole("link", { name: "Two weeks in Japan on one rail pass: our route" }).click();
    await expect(a.page.getByRole("article").getByText("· edited", { exact: true })).toHaveText(/edited/);

    // B finds it by a word of its body, opens it, replies mentioning A, and reacts.
    await b.page.goto("/forum");
    await b.page.getByLabel("Search posts").fill(word);
    await b.page.getByRole("button", { name: "Search" }).click();
    await expect(b.page).toHaveURL(new RegExp(`q=${word}`));
    await b.page.getByRole("link", { name: title }).click();
    await expect(b.page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    const reply = b.page.getByRole("textbox", { name: "Write a reply" });
    // An empty reply is refused where it is written: focus goes to the field, which says why.
    await b.page.getByRole("button", { name: "Reply", exact: true }).click();
    await expect(reply).toBeFocused();
    await expect(reply).toHaveAccessibleDescription(/Please write a reply/);
    await reply.fill("Count us in ");
    await reply.pressSequentially(`@${a.coupleName.split(" ")[0]}`);
    await expect(reply).toHaveAttribute("aria-controls", /-mentions$/);
    await expect(b.page.getByRole("listbox", { name: "Couples to mention" })).toBeVisible();
    // A textbox cannot say a list opened: a status says how many are offered and how to choose.
    await expect(b.page.getByRole("status").filter({ hasText: "to mention" })).toHaveText(
      /^\d+ couples? to mention: up and down arrows to move/,
    );
    await b.page.getByRole("option", { name: a.coupleName }).click();
    await expect(reply).toHaveValue(`Count us in @${a.coupleName} `);
    await reply.pressSequentially("see you there!");
    await b.page.getByRole("button", { name: "Reply", exact: true }).click();
    const bReply = b.page.locator('[id^="reply-"]').filter({ hasText: "see you there!" });
    await expect(bReply).toBeVisible();
    await expect(bReply.getByRole("link", { name: `@${a.coupleName}` })).toBeVisible();
    // B edits the reply in place; the mention stays a link.
    const bReplyId = await bReply.getAttribute("id");
    const editedReply = b.page.locator(`[id="${bReplyId}"]`);
    await editedReply.locator('summary[aria-label="Reply actions"]').click();
    await editedReply.getByRole("button", { name: "Edit", exact: true }).click();
    const replyField = editedReply.getByRole("form", { name: "Edit reply" }).getByRole("textbox", { name: "Edit your reply" });
    await expect(replyField).toBeFocused();
    await expect(editedReply.getByText(/^\d+ \/ 5,000 characters$/)).toBeVisible();
    await replyField.press("Control+End");
    await replyField.pressSequentially(" Snacks on us.");
    await editedReply.getByRole("button", { name: "Save Changes" }).click();
    await expect(editedReply).toContainText("see you there! Snacks on us.");
    await expect(editedReply.getByRole("link", { name: `@${a.coupleName}` })).toBeVisible();
    // No reaction yet: one 'React' button opens the five.
    const reactions = b.page.getByRole("group", { name: "Reactions" }).first();
    await reactions.getByRole("button", { name: "React", exact: true }).click();
    const heart = reactions.getByRole("button", { name: "React with heart" });
    await heart.click();
    await expect(heart).toHaveAttribute("aria-pressed", "true");
    // Who reacted, in a tooltip (WCAG 1.4.13): Escape hides it where it stands, and the pointer can move onto it.
    // Found beside its emoji, not by id: a live update renders the reactions anew, under new ids.
    const tip = heart.locator('xpath=following-sibling::*[@role="tooltip"]');
    // Mid-screen, so the tooltip above it is clear of the sticky top bar.
    await heart.evaluate((element) => element.scrollIntoView({ block: "center" }));
    await heart.hover();
    await expect(tip).toBeVisible();
    await b.page.keyboard.press("Escape");
    await expect(tip).toBeHidden();
    await b.page.mouse.move(0, 0);
    await heart.hover();
    await expect(tip).toBeVisible();
    const [from, to] = [(await heart.boundingBox())!, (await tip.boundingBox())!];
    await b.page.mouse.move(from.x + 8, from.y + 2);
    await b.page.mouse.move(to.x + 8, to.y + to.height / 2, { steps: 8 });
    await expect(tip).toBeVisible();
    await b.page.mouse.move(0, 0);
    await expect(tip).toBeHidden();
    // By the keyboard: shown on focus, Escape hides it and leaves focus where it was.
    await reactions.getByRole("button", { name: /heart: who reacted/ }).focus();
    await b.page.keyboard.press("Shift+Tab");
    await expect(heart).toBeFocused();
    await expect(tip).toBeVisible();
    await b.page.keyboard.press("Escape");
    await expect(tip).toBeHidden();
    await expect(heart).toBeFocused();

    // A reply that mentions the post's couple notifies them once, as a reply: B mentions A in a post too.
    await b.page.goto("/forum");
    await b.page.getByRole("button", { name: "New Post" }).click();
    const composer = b.page.getByRole("form", { name: "New Post" });
    await composer.getByLabel("Title").fill(`Sintra crew ${word.slice(-4)}`);
    await composer.getByLabel("Topic").selectOption({ label: "Meetups" });
    const body = composer.getByRole("textbox", { name: "Your post" });
    await body.pressSequentially(`Thanks @${a.coupleName.slice(0, 4)}`);
    await body.press("ArrowDown");
    await expect(b.page.getByRole("option", { name: a.coupleName })).toBeVisible();
    await b.page.getByRole("option", { name: a.coupleName }).click();
    await body.pressSequentially("for the tip!");
    await composer.getByRole("button", { name: "Publish Post" }).click();
    await expect(b.page.getByRole("link", { name: `@${a.coupleName}` })).toBeVisible();

    // A's bell: the reply and the mention; the reply opens at its anchor, highlighted.
    await a.page.goto("/forum");
    await expect(bell(a.page)).toHaveAccessibleName(/unread$/, { timeout: 20_000 });
    await bell(a.page).click();
    const latest = a.page.getByRole("region", { name: "Latest notifications" });
    await expect(latest.getByRole("link", { name: /replied/i })).toBeVisible();
    await expect(latest.getByRole("link", { name: /mentioned/i })).toBeVisible();
    await latest
      .getByRole("link", { name: /replied/i })
      .first()
      .click();
    await expect(a.page).toHaveURL(new RegExp(`${postUrl.split("/").pop()}#reply-[0-9a-f-]+$`));
    const target = a.page.locator('[id^="reply-"][aria-current="true"]');
    await expect(target).toContainText("see you there!");
    await expect(target).toBeInViewport();
    // Writing while the thread reloads (every 10 s): the reply was followed once, and takes the focus no more.
    const answer = a.page.getByRole("textbox", { name: "Write a reply" });
    await answer.focus();
    const threadPath = `/api/forum/posts/${postUrl.split("/").pop()}`;
    await a.page.waitForResponse((response) => new URL(response.url()).pathname === threadPath, { timeout: 20_000 });
    await a.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await expect(answer).toBeFocused();
    // A reply B adds while A reads is read out to A (the list itself is silent), and leaves A's focus where it is.
    await b.page.goto(postUrl);
    await b.page.getByRole("textbox", { name: "Write a reply" }).fill("And we bring the map.");
    await b.page.getByRole("button", { name: "Reply", exact: true }).click();
    await expect(b.page.locator('[id^="reply-"]').filter({ hasText: "And we bring the map." })).toBeVisible();
    const heard = a.page.getByRole("status").and(a.page.getByTestId("arrivals"));
    await expect(heard).toContainText(`of ${b.coupleName} replied: And we bring the map.`, { timeout: 20_000 });
    await expect(answer).toBeFocused();

    // A reports B's reply, then blocks B.
    const menu = target.locator('summary[aria-label="Reply actions"]');
    await menu.click();
    await target.getByRole("button", { name: "Report" }).click();
    const report = a.page.getByRole("dialog", { name: "Report" });
    await report.getByRole("radio", { name: "Spam" }).check();
    await report.getByRole("button", { name: "Send Report" }).click();
    await expect(report.getByText("Thanks, our team will review this.")).toBeVisible();
    await report.getByRole("button", { name: "Close", exact: true }).first().click();
    await expect(menu).toBeFocused();

    await menu.click();
    await target.getByRole("button", { name: `Block ${b.coupleName}` }).click();
    await a.page
      .getByRole("dialog", { name: `Block ${b.coupleName}?` })
      .getByRole("button", { name: `Block ${b.coupleName}` })
      .click();
    await expect(a.page.getByText("see you there!")).toHaveCount(0);

    // Neither sees the other: B's post page is not found, and each is out of the other's search.
    await b.page.goto(postUrl);
    await expect(b.page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await b.page.goto(`/forum?q=${word}`);
    await expect(b.page.getByRole("link", { name: title })).toHaveCount(0);
    await a.page.goto(postUrl);
    await expect(a.page.getByText("see you there!")).toHaveCount(0);
  });

  test("a long post's row in the list shows its start, and the list's page carries its start only, not the whole body", async ({
    browser,
    request,
  }) => {
    const poster = await couple(browser, request, "Lena", LISBON);
    const title = `Long walk ${Date.now().toString(36)}`;
    const tail = `Signed at the very end ${Date.now().toString(36)}`;
    await publish(poster.page, {
      title,
      body: `${"We walked the whole coast from Cascais to Sintra. ".repeat(60)}${tail}`,
      scope: "Global",
    });

    await poster.page.goto("/forum");
    const row = poster.page.getByRole("listitem").filter({ has: poster.page.getByRole("link", { name: title }) });
    await expect(row).toContainText("We walked the whole coast from Cascais to Sintra.");
    await expect(row).not.toContainText(tail);
    // The page's HTML and the data React takes it over with hold the excerpt, not 3,000 characters.
    const html = await (await poster.page.request.get("/forum")).text();
    expect(html.includes(title), "the list's page holds the post").toBe(true);
    expect(html.includes(tail), "the list's page holds the post's whole body").toBe(false);
  });

  test("a delete the network loses is said on the post, which stays; the next try deletes it", async ({ browser, request }) => {
    const poster = await couple(browser, request, "Dora", LISBON);
    const title = `Gone soon ${Date.now().toString(36)}`;
    await publish(poster.page, { title, body: "A post about the tram.", scope: "Global" });
    const page = poster.page;
    page.on("dialog", (dialog) => void dialog.accept());
    await page.route("**/api/forum/posts/*", (route) =>
      route.request().method() === "DELETE" ? route.abort("internetdisconnected") : route.fallback(),
    );
    await page.locator(`summary[aria-label="Post actions"]`).click();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    // A delete is tried again on a dropped connection (the spec's client rules), then said as the spec says it:
    // its three retries wait up to 10 s between them (1, 2 and 4 s, each with up to 1 s of jitter).
    await expect(page.getByRole("article").getByRole("alert")).toContainText("Request failed after retries", { timeout: 20_000 });
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

    await page.unroute("**/api/forum/posts/*");
    await page.locator(`summary[aria-label="Post actions"]`).click();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await expect(page).toHaveURL(/\/forum$/);
    await expect(page.getByRole("link", { name: title })).toHaveCount(0);
  });

  test("a local post is seen by a couple 20 km away and not by one 300 km away", async ({ browser, request }) => {
    test.setTimeout(120_000);
    const [poster, near, far] = [
      await couple(browser, request, "Rita", LISBON),
      await couple(browser, request, "Nuno", NEAR),
      await couple(browser, request, "Vera", FAR),
    ];
    const title = `Sunset picnic ${Date.now().toString(36)}`;
    await publish(poster.page, { title, body: "Anyone near the river this Saturday?", scope: "Local" });

    await near.page.goto("/forum/local");
    const row = near.page.getByRole("listitem").filter({ has: near.page.getByRole("link", { name: title }) });
    await expect(row).toBeVisible();
    await expect(row).toContainText(/within \d+ km/);

    await far.page.goto("/forum/local?radius=100");
    await expect(far.page.getByRole("heading", { level: 1, name: "Local Forum" })).toBeVisible();
    await expect(far.page.getByRole("link", { name: title })).toHaveCount(0);
  });
});
