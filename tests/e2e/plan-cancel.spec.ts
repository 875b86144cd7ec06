import { expect, test } from "@playwright/test";
import { newCouple, startConversation } from "./support";

/** The day `days` ahead, as the date input takes it. */
const dayAhead = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * 'Cancel this plan?': the proposing couple cancels with a reason, and the card says so with it.
 * Two couples of their own.
 */
test("a plan cancelled with a reason shows 'Cancelled' and why", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const laptop = { width: 1280, height: 900 };
  const ana = await newCouple(browser, request, "Anacancel", laptop);
  const bea = await newCouple(browser, request, "Beacancel", laptop);

  await ana.page.goto(await startConversation(ana, bea, "Coffee some time?"));

  await ana.page.getByRole("button", { name: "Plan a meetup" }).click();
  const form = ana.page.getByRole("dialog", { name: "Plan a meetup" });
  await form.getByLabel("What").fill("Coffee by the river");
  await form.getByLabel("Date").fill(dayAhead(10));
  await form.getByLabel("Starts").fill("10:30");
  await form.getByRole("combobox", { name: "Where" }).fill("Lisbon");
  await form.getByRole("option").filter({ hasText: "Lisbon" }).first().click();
  await form.getByRole("button", { name: "Propose" }).click();
  await expect(form).toBeHidden();

  const card = ana.page.getByRole("article", { name: "Coffee by the river" });
  await card.getByRole("button", { name: "Cancel plan" }).click();
  const dialog = ana.page.getByRole("dialog", { name: "Cancel this plan?" });
  await dialog.getByLabel("Reason (optional)").fill("  Rain all day.  ");
  await dialog.getByRole("button", { name: "Cancel plan" }).click();
  await expect(dialog).toBeHidden();
  await expect(card.getByText("Cancelled", { exact: true })).toBeVisible();
  await expect(card.getByText("Why: Rain all day.")).toBeVisible();
  // The button that opened the dialog is gone: the keyboard is on the card, not at the page's top.
  await expect(card).toBeFocused();
});
