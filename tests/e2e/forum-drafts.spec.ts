import { expect, test } from "./test";
import { csrfToken, holdScripts, newCouple } from "./support";

/**
 * The forum's drafts (kept in the tab's session storage): a post and a reply being written survive
 * a reload and a cancelled composer, and go once they are sent. One couple of its own.
 */
test("a post's and a reply's drafts survive a reload and go once sent", async ({ browser, request }) => {
  const { page } = await newCouple(browser, request, "Drafty", { width: 1280, height: 900 });
  const title = `Drafted walk ${Date.now()}`;

  await page.goto("/forum");
  await page.getByRole("button", { name: "New Post" }).click();
  let composer = page.getByRole("form", { name: "New Post" });
  await composer.getByLabel("Title").fill(title);
  await composer.getByLabel("Topic").selectOption({ label: "Travel" });
  await composer.getByLabel("Your post").fill("Who walks the river with us on Sunday?");
  await page.reload();
  await page.getByRole("button", { name: "New Post" }).click();
  composer = page.getByRole("form", { name: "New Post" });
  await expect(composer.getByLabel("Title")).toHaveValue(title);
  await expect(composer.getByLabel("Your post")).toHaveValue("Who walks the river with us on Sunday?");
  await expect(composer.getByLabel("Title")).toBeFocused();
  // Cancelled, the composer keeps what was typed for the next 'New Post', which starts at the title again.
  await composer.getByLabel("Your post").fill("Who walks the river with us on Sunday? Dogs welcome.");
  await composer.getByRole("button", { name: "Cancel" }).click();
  await expect(composer).toBeHidden();
  // Focus goes back to where the composer was opened.
  await expect(page.getByRole("button", { name: "New Post" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(composer.getByLabel("Your post")).toHaveValue("Who walks the river with us on Sunday? Dogs welcome.");
  await expect(composer.getByLabel("Title")).toBeFocused();
  await composer.getByRole("button", { name: "Publish Post" }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

  const reply = page.getByRole("textbox", { name: "Write a reply" });
  await reply.fill("Count us in.");
  await page.reload();
  await expect(reply).toHaveValue("Count us in.");
  await page.getByRole("button", { name: "Reply", exact: true }).click();
  await expect(page.getByText("Count us in.").first()).toBeVisible();
  await expect(reply).toHaveValue("");
  await page.reload();
  await expect(reply).toHaveValue("");

  // Published, the post's draft is gone: the composer opens empty.
  await page.goto("/forum");
  await page.getByRole("button", { name: "New Post" }).click();
  await expect(page.getByRole("form", { name: "New Post" }).getByLabel("Title")).toHaveValue("");
});

test("a reply typed before the reply form's code arrives loses nothing, keeps its focus and caret, and is posted", async ({
  browser,
  request,
}) => {
  const couple = await newCouple(browser, request, "Early", { width: 1280, height: 900 });
  // Without the service worker, whose cache would answer for the scripts out of the walk's reach.
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    serviceWorkers: "block",
    storageState: await couple.page.context().storageState(),
  });
  const page = await context.newPage();
  const title = `Early reply ${Date.now()}`;
  const created = await page.request.post("/api/forum/posts", {
    headers: { "X-CSRF-Token": await csrfToken(page) },
    data: { title, body: "Picnic on the river?", topic: "travel", scope: "global", photos: [], mentions: [] },
  });
  expect(created.status()).toBe(201);
  const { data: post } = (await created.json()) as { data: { id: string } };

  await page.goto(`/forum/post/${post.id}`);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await page.waitForLoadState("networkidle");
  // From here every script the page asks for waits: the thread is in, the reply form's own code is not.
  const scripts = await holdScripts(page);
  const reply = page.getByRole("textbox", { name: "Write a reply" });
  const light = await reply.elementHandle();
  await reply.click();
  await reply.pressSequentially("We bring the bread");
  expect(scripts.held(), "the reply form's code was asked for and held").toBeGreaterThan(0);
  expect(await light!.evaluate((field) => field.isConnected), "still the thread's own field").toBe(true);
  await expect(page.getByText("18 / 5,000 characters")).toBeVisible();

  scripts.release();
  // The full form takes the field's place with the words, the focus and the caret where they were.
  await expect.poll(() => light!.evaluate((field) => field.isConnected)).toBe(false);
  await expect(reply).toHaveValue("We bring the bread");
  await expect(reply).toBeFocused();
  await page.keyboard.type(" and the cheese.");
  await expect(reply).toHaveValue("We bring the bread and the cheese.");
  await scripts.stop();

  await page.getByRole("button", { name: "Reply", exact: true }).click();
  await expect(page.locator('[id^="reply-"]').filter({ hasText: "We bring the bread and the cheese." })).toBeVisible();
  await expect(reply).toHaveValue("");
});
