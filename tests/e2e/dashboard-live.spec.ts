import { expect, test } from "./test";
import { LAPTOP, PHONE } from "./checks";
import { newCouple, openProfile, sayHello } from "./support";

/**
 * What waits for a couple shows where they are, without a reload: a hello sent to them appears on
 * the open dashboard's 'Recent notifications' as on the bell, and badges 'Messages' until this
 * partner answers it. Couples of its own (newCouple).
 */
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

test("a hello shows live on the open dashboard and badges Messages until it is answered", async ({ browser, request }) => {
  test.setTimeout(180_000);
  const irene = await newCouple(browser, request, "Irene", PHONE);
  const julia = await newCouple(browser, request, "Julia", LAPTOP);

  await irene.page.goto("/dashboard");
  const recent = irene.page.getByRole("region", { name: "Recent notifications" });
  await expect(recent).toBeVisible();
  await expect(irene.page.getByTestId("messages-badge")).toHaveCount(0);

  await openProfile(julia, irene.coupleName);
  await sayHello(julia, irene.coupleName, "Coffee in the old town?");

  // Live on the open page: the card (faces first, as the bell) and the Messages badge.
  await expect(recent.getByRole("link", { name: /New connection request/ })).toBeVisible({ timeout: 15_000 });
  await expect(recent.getByText(`${julia.coupleName} said hello`)).toBeVisible();
  await expect(irene.page.getByTestId("messages-badge").first()).toHaveText("1", { timeout: 15_000 });

  // Answered: the badge goes, and the card's entry is no longer new.
  await irene.page.goto("/messages");
  await irene.page.getByRole("tab", { name: "Requests (1)" }).click();
  await irene.page.getByRole("button", { name: "Accept" }).click();
  await expect(irene.page).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
  await expect(irene.page.getByTestId("messages-badge")).toHaveCount(0, { timeout: 15_000 });
  await irene.page.goto("/dashboard");
  await expect(recent.getByRole("link", { name: /New connection request/ })).toBeVisible();
  await expect(recent.getByText("New", { exact: true })).toHaveCount(0);
});
