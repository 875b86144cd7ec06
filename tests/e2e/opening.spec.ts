import { expect, test } from "./test";
import { newCouple } from "./support";

type Watched = Window & { statusesAdded?: { element: Element; textWhenAdded: string }[] };

/**
 * A form whose code loads on the click that opens it says 'Opening...' meanwhile, through a status
 * that is in the page before its words: screen readers announce a live region's change, and some
 * say nothing of one that arrives with its text. The composer's code is held back 1.5 s so the
 * wait can be watched. One couple of its own.
 */
test("'Opening...' is told through a status that is in the page before its words", async ({ browser, request }) => {
  const { page } = await newCouple(browser, request, "Opener", { width: 390, height: 844 });
  await page.goto("/forum");
  await expect(page.getByRole("button", { name: "New Post" })).toBeVisible();
  // The page's own code came with its load: from here on, code is held back as a slow phone network would.
  await page.route("**/_next/static/chunks/*.js", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.evaluate(() => {
    const watched = window as Watched;
    watched.statusesAdded = [];
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue;
          const statuses = node.matches("[role=status]") ? [node] : [...node.querySelectorAll("[role=status]")];
          for (const element of statuses) watched.statusesAdded!.push({ element, textWhenAdded: element.textContent ?? "" });
        }
    }).observe(document.body, { childList: true, subtree: true });
  });

  // An added status keeps its words once removed: this finds an 'Opening...' that came and went.
  const openingWhenAdded = () =>
    page.evaluate(() => (window as Watched).statusesAdded!.find(({ element }) => element.textContent === "Opening...")?.textWhenAdded);
  // A click made before the page's scripts have taken over the server's markup may be replayed once
  // they have, or do nothing: press while the button shows (a press that took hides it) until an
  // 'Opening...' status has been in the page.
  const newPost = page.getByRole("button", { name: "New Post" });
  await expect(async () => {
    if (await newPost.isVisible()) await newPost.click({ timeout: 1000 }).catch(() => {});
    await expect.poll(openingWhenAdded, { timeout: 1000 }).toBeDefined();
  }).toPass();
  expect(await openingWhenAdded()).toBe("");

  await expect(page.getByRole("form", { name: "New Post" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Opening..." })).toHaveCount(0);
});
