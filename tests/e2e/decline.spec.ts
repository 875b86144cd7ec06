import { expect, test } from "./test";
import { axe, PHONE } from "./checks";
import { newCouple, openProfile, sayHello } from "./support";
import { INBOX_TEXTS } from "../../lib/messages/display";

/**
 * Declining a hello, by keyboard: the declined request leaves the list with its buttons, and the
 * keyboard lands on the next request's name, then on the words that say none are left. The
 * sender is never told (its profile still says the request was sent). An empty inbox points to the
 * hellos waiting. Within the 90 days no hello back is offered ('You can say hello later'), nor
 * shown as sent. Couples of its own.
 */
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

test("declining hellos one after the other keeps the keyboard in the list, and the sender is not told", async ({ browser, request }) => {
  test.setTimeout(240_000);
  const vera = await newCouple(browser, request, "Vera", PHONE);
  const nadia = await newCouple(browser, request, "Nadia", PHONE);
  const olga = await newCouple(browser, request, "Olga", PHONE);
  for (const [who, note] of [
    [nadia, "Fancy a hike this weekend?"],
    [olga, "We cook a mean paella, join us?"],
  ] as const) {
    await openProfile(who, vera.coupleName);
    await sayHello(who, vera.coupleName, note);
  }

  // An inbox with no conversation yet points to the hellos waiting, not to the directory.
  await vera.page.goto("/messages");
  await expect(vera.page.getByText("No conversations yet.")).toBeVisible();
  await expect(vera.page.getByRole("link", { name: INBOX_TEXTS.noConversations })).toHaveCount(0);
  await vera.page.getByRole("button", { name: INBOX_TEXTS.hellosWaiting(2) }).click();
  await expect(vera.page.getByRole("tab", { name: "Requests (2)" })).toHaveAttribute("aria-selected", "true");
  await expect(vera.page.getByRole("tab", { name: "Requests (2)" })).toBeFocused();
  const requests = vera.page.getByRole("list", { name: "Requests" });
  // Newest first: Olga's, then Nadia's.
  await expect(requests.getByRole("article")).toHaveCount(2);
  await expect(requests.getByRole("article").first()).toHaveAccessibleName(olga.coupleName);
  await requests.getByRole("article", { name: olga.coupleName }).getByRole("button", { name: "Decline" }).press("Enter");
  await expect(vera.page.getByRole("tab", { name: "Requests (1)" })).toBeVisible();
  await expect(requests.getByRole("link", { name: nadia.coupleName })).toBeFocused();

  await requests.getByRole("article", { name: nadia.coupleName }).getByRole("button", { name: "Decline" }).press("Enter");
  await expect(vera.page.getByRole("tab", { name: "Requests (0)" })).toBeVisible();
  await expect(vera.page.getByText(INBOX_TEXTS.noRequests)).toBeFocused();
  await axe(vera.page);

  // Nadia is not told: her side still reads as sent.
  await openProfile(nadia, vera.coupleName);
  await expect(nadia.page.getByText("Request sent", { exact: true }).first()).toBeVisible();

  // Within the 90 days after the hello she declined, Vera is offered no hello to Nadia: the card
  // says when, as the send would refuse it (connectionStateOf), and never that one was sent.
  await openProfile(vera, nadia.coupleName);
  await expect(vera.page.getByText(INBOX_TEXTS.helloLater).first()).toBeVisible();
  await expect(vera.page.getByRole("button", { name: `Say hello to ${nadia.coupleName}` })).toHaveCount(0);
  await expect(vera.page.getByText("Request sent", { exact: true })).toHaveCount(0);
});
