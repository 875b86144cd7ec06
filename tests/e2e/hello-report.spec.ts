import { expect, test } from "./test";
import { axe, LAPTOP, PHONE, wholeTarget } from "./checks";
import { runDatabase } from "./database";
import { newCouple, openProfile, queueRow, sayHello } from "./support";
import { FORUM_TEXTS } from "../../lib/forum/rules";
import { INBOX_TEXTS } from "../../lib/messages/display";

/**
 * An abusive hello is reported from the inbox's requests, at phone size: its menu, the report
 * dialog, thanks. A moderator (laptop) reads the hello's words in the queue as 'a hello', with the
 * couple's actions and no 'Remove'. The other hello's couple is blocked from the same menu, and
 * its hello leaves the list. Couples of their own.
 */
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

test("a hello is reported from the requests and reaches the moderators with its words; blocking from its menu takes it away", async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const ines = await newCouple(browser, request, "Ines", PHONE);
  const rude = await newCouple(browser, request, "Rude", PHONE);
  const pushy = await newCouple(browser, request, "Pushy", PHONE);
  const moderator = await newCouple(browser, request, "Moira", LAPTOP);
  await runDatabase(
    (db) =>
      db`update users set role = 'moderator' where id = (select partner1_id from couples where couple_name = ${moderator.coupleName})`,
  );
  const abusive = `Send us your address tonight ${rude.firstName}`;
  for (const [who, note] of [
    [rude, abusive],
    [pushy, "Answer us already"],
  ] as const) {
    await openProfile(who, ines.coupleName);
    await sayHello(who, ines.coupleName, note);
  }

  await ines.page.goto("/messages?tab=requests");
  const requests = ines.page.getByRole("list", { name: "Requests" });
  const hello = requests.getByRole("article", { name: rude.coupleName });
  await expect(hello.getByText(abusive)).toBeVisible();
  const more = hello.locator(`summary[aria-label="More actions for the hello from ${rude.coupleName}"]`);
  await wholeTarget(more);
  await more.click();
  await hello.getByRole("button", { name: "Report" }).click();
  const dialog = ines.page.getByRole("dialog", { name: "Report" });
  await dialog.getByRole("radio", { name: "Harassment" }).check();
  await dialog.getByLabel("Note (optional)").fill("Creepy first message");
  await dialog.getByRole("button", { name: "Send Report" }).click();
  await expect(dialog.getByRole("status")).toHaveText(FORUM_TEXTS.reportThanks);
  await axe(ines.page);
  await dialog.getByRole("button", { name: "Close", exact: true }).first().click();
  await expect(more).toBeFocused();

  // The moderator reads the hello's words, names it a hello, and acts on the couple (no Remove).
  await moderator.page.goto("/moderation");
  const report = await queueRow(moderator.page, abusive);
  await expect(report).toContainText(`a hello by ${rude.coupleName}`);
  await expect(report).toContainText("Note: Creepy first message");
  await expect(report.getByRole("link", { name: "Act on the couple" })).toBeVisible();
  await expect(report.getByRole("button", { name: "Remove" })).toHaveCount(0);
  await axe(moderator.page);
  await report.getByRole("button", { name: "Dismiss" }).click();
  await expect(moderator.page.getByText(abusive)).toHaveCount(0);

  // Ines blocks the pushy couple from its hello's menu: the hello leaves her requests.
  const pushyHello = requests.getByRole("article", { name: pushy.coupleName });
  await pushyHello.locator(`summary[aria-label="More actions for the hello from ${pushy.coupleName}"]`).click();
  await pushyHello.getByRole("button", { name: `Block ${pushy.coupleName}` }).click();
  await ines.page
    .getByRole("dialog", { name: `Block ${pushy.coupleName}?` })
    .getByRole("button", { name: `Block ${pushy.coupleName}` })
    .click();
  await expect(requests.getByRole("article", { name: pushy.coupleName })).toHaveCount(0);
  await expect(ines.page.getByRole("tab", { name: "Requests (1)" })).toBeVisible();
  await expect(ines.page.getByText(INBOX_TEXTS.noRequests)).toHaveCount(0);
});
