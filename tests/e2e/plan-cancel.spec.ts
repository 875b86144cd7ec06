import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { newCouple, startConversation } from "./support";

/** The day `days` ahead, as the date input takes it. */
const dayAhead = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Proposes a plan in the open conversation, at 22:30 `days` ahead, ending after midnight. */
async function propose(page: Page, title: string, days: number) {
  await page.getByRole("button", { name: "Plan a meetup" }).click();
  const form = page.getByRole("dialog", { name: "Plan a meetup" });
  await form.getByLabel("What").fill(title);
  await form.getByLabel("Date").fill(dayAhead(days));
  await form.getByLabel("Starts").fill("22:30");
  // An end before the start is the next day's: the plan is taken, not refused.
  await form.getByLabel("Ends (optional)").fill("00:30");
  await form.getByRole("combobox", { name: "Where" }).fill("Lisbon");
  await form.getByRole("option").filter({ hasText: "Lisbon" }).first().click();
  await form.getByRole("button", { name: "Propose" }).click();
  await expect(form).toBeHidden();
}

/**
 * 'Cancel this plan?': the proposing couple cancels with a reason (kept while the dialog is closed
 * and opened again), and the card says so with it,
 * with the calendar file that takes it out of a calendar. Two couples of their own.
 */
test("a plan cancelled with a reason shows 'Cancelled' and why", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const laptop = { width: 1280, height: 900 };
  const ana = await newCouple(browser, request, "Anacancel", laptop);
  const bea = await newCouple(browser, request, "Beacancel", laptop);

  await ana.page.goto(await startConversation(ana, bea, "Coffee some time?"));

  await propose(ana.page, "Coffee by the river", 10);

  const card = ana.page.getByRole("article", { name: "Coffee by the river" });
  await card.getByRole("button", { name: "Cancel plan" }).click();
  const dialog = ana.page.getByRole("dialog", { name: "Cancel this plan?" });
  await dialog.getByLabel("Reason (optional)").fill("  Rain all day.  ");
  // Closed and opened again, the dialog still holds the reason typed.
  await dialog.getByRole("button", { name: "Keep it" }).click();
  await expect(dialog).toBeHidden();
  await card.getByRole("button", { name: "Cancel plan" }).click();
  await expect(dialog.getByLabel("Reason (optional)")).toHaveValue("  Rain all day.  ");
  await dialog.getByRole("button", { name: "Cancel plan" }).click();
  await expect(dialog).toBeHidden();
  await expect(card.getByText("Cancelled", { exact: true })).toBeVisible();
  await expect(card.getByText("Why: Rain all day.")).toBeVisible();
  // The button that opened the dialog is gone: the keyboard is on the card, not at the page's top.
  await expect(card).toBeFocused();
  const removal = card.getByRole("link", { name: "Mark as cancelled in your calendar (.ics)" });
  const file = await ana.page.request.get((await removal.getAttribute("href"))!);
  expect(await file.text()).toContain("STATUS:CANCELLED");
});

/**
 * Two people at one plan: a form opened before the other couple's change, sent after it, is
 * refused with the reason, and the card shows the change it would have overwritten.
 */
test("a change sent on a plan that changed since the form opened is refused, and the card shows the newer plan", async ({
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const phone = { width: 390, height: 844 };
  const ana = await newCouple(browser, request, "Anastale", phone);
  const bea = await newCouple(browser, request, "Beastale", phone);
  const conversation = await startConversation(ana, bea, "Dinner some time?");
  await ana.page.goto(conversation);
  await propose(ana.page, "Dinner at the harbour", 12);
  await bea.page.goto(conversation);

  const cardOf = (page: Page) => page.getByRole("article", { name: "Dinner at the harbour" });
  await cardOf(ana.page).getByRole("button", { name: "Change" }).click();
  const stale = ana.page.getByRole("dialog", { name: "Change the plan" });
  await expect(stale.getByLabel("Starts")).toHaveValue("22:30");

  await cardOf(bea.page).getByRole("button", { name: "Change" }).click();
  const moving = bea.page.getByRole("dialog", { name: "Change the plan" });
  await moving.getByLabel("Starts").fill("20:00");
  await moving.getByLabel("Ends (optional)").fill("");
  await moving.getByRole("button", { name: "Change and ask again" }).click();
  await expect(moving).toBeHidden();
  await expect(cardOf(ana.page)).toContainText("20:00", { timeout: 20_000 });

  await stale.getByLabel("Note (optional)").fill("We booked the corner table");
  await stale.getByRole("button", { name: "Change and ask again" }).click();
  await expect(stale.getByRole("alert")).toHaveText("This plan changed since you opened it. Please look at it again.");
  await stale.getByRole("button", { name: "Back" }).click();
  await expect(cardOf(ana.page)).toContainText("20:00");
  await expect(cardOf(bea.page)).not.toContainText("We booked the corner table");
});

/**
 * A block cancels the two couples' upcoming plans and ends their conversation: both couples' open
 * cards say 'Cancelled' and 'Upcoming' drops the plan without a reload. The plan's own live row
 * reaches nobody across the block; the conversation's ending is what tells the plan views.
 */
test("a block shows the plan cancelled on both couples' open cards and takes it out of 'Upcoming', live", async ({ browser, request }) => {
  test.setTimeout(150_000);
  const laptop = { width: 1280, height: 900 };
  const ana = await newCouple(browser, request, "Anablock", laptop);
  const bea = await newCouple(browser, request, "Beablock", laptop);
  const conversation = await startConversation(ana, bea, "Lunch some time?");
  await bea.page.getByRole("textbox", { name: "Message" }).fill("Saturday suits us");
  await bea.page.getByRole("button", { name: "Send", exact: true }).click();
  await ana.page.goto(conversation);
  await propose(ana.page, "Lunch by the sea", 9);

  const cardOf = (page: Page) => page.getByRole("article", { name: "Lunch by the sea" });
  const upcomingOf = (page: Page) => page.getByRole("region", { name: "Upcoming" });
  for (const { page } of [ana, bea]) {
    await expect(cardOf(page)).toBeVisible({ timeout: 20_000 });
    await expect(upcomingOf(page)).toContainText("Lunch by the sea", { timeout: 20_000 });
  }

  // Ana blocks them from their message's menu, and stays on the thread.
  const log = ana.page.getByRole("log", { name: "Messages" });
  await log.getByTestId("message").filter({ hasText: "Saturday suits us" }).locator("summary").click();
  await ana.page.getByRole("button", { name: `Block ${bea.coupleName}` }).click();
  await ana.page
    .getByRole("dialog")
    .getByRole("button", { name: `Block ${bea.coupleName}` })
    .click();

  for (const { page } of [ana, bea]) {
    await expect(page.getByRole("status").filter({ hasText: "This conversation has ended." })).toBeVisible({ timeout: 20_000 });
    await expect(cardOf(page).getByText("Cancelled", { exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(upcomingOf(page)).toHaveCount(0);
  }
});
