import { expect, test } from "./test";
import { LAPTOP } from "./checks";
import { completeCouple, signIn, verifiedAccount } from "./support";

/**
 * One browser, two accounts one after the other (a shared computer): a tab left open on one
 * person's pages never streams the next person's events into them; once someone else has signed
 * in in another tab, the left tab loads again as the session's person sees it.
 */
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

test("a tab left open after someone else signed in in the same browser loads again as theirs", async ({ browser, request }) => {
  test.setTimeout(180_000);
  const { page: left } = await completeCouple(browser, request, "shared-first", {
    coupleData: { coupleName: "Shared First & Co", placeId: "geonames:2267057" },
  });
  await left.setViewportSize(LAPTOP);
  const streaming = left.waitForResponse((response) => new URL(response.url()).pathname === "/api/stream");
  await left.goto("/dashboard");
  await streaming;

  // In another tab: sign out, and someone else signs in (their profile is still to be made).
  const other = await left.context().newPage();
  await other.goto("/signout");
  await expect(other).toHaveURL(/\/login/);
  const next = await verifiedAccount(request, "shared-next");
  await signIn(other, next);
  await expect(other).toHaveURL(/\/onboarding$/);

  // The tab left open loads again as the next person's: their onboarding, nothing of the first couple's.
  await expect(left).toHaveURL(/\/onboarding$/, { timeout: 90_000 });
  await expect(left.getByRole("heading", { name: "Tell us about yourself" })).toBeVisible();
});
