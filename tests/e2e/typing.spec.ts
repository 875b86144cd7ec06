import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { axe, LAPTOP, noHorizontalScroll, PHONE, THEMES } from "./checks";
import { newCouple, startConversation } from "./support";

/**
 * '... is typing' between two couples (couples of its own, newCouple): one writes, the other sees
 * who is typing under the messages, announced politely; it goes 5 s after the last keystroke, or
 * at once when the message arrives. At phone and laptop size, in both themes.
 */
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

type Who = { page: Page; firstName: string };
const field = (who: Who) => who.page.getByRole("textbox", { name: "Message" });
const typingOf = (viewer: Who, typist: Who) => viewer.page.getByText(`${typist.firstName} is typing…`, { exact: true });
const anyTyping = (viewer: Who) => viewer.page.getByText(/is typing…$/);

test("the other couple sees who is typing, until they stop or their message arrives", async ({ browser, request }, testInfo) => {
  test.setTimeout(240_000);
  const ines = await newCouple(browser, request, "Ines", PHONE);
  const marta = await newCouple(browser, request, "Marta", LAPTOP);

  const thread = await startConversation(ines, marta, "Coffee by the river?");

  for (const theme of THEMES) {
    for (const who of [ines, marta]) {
      await who.page.evaluate((chosen) => window.localStorage.setItem("theme", chosen), theme);
      await who.page.goto(thread);
      await expect(who.page.locator("html")).toHaveAttribute("data-theme", theme);
      await expect(field(who)).toBeVisible();
    }
    // Ines types on her phone: Marta (laptop) sees it, in a polite live region; Ines never sees her own.
    await field(ines).pressSequentially("We could meet", { delay: 30 });
    await expect(typingOf(marta, ines)).toBeVisible({ timeout: 15_000 });
    await expect(typingOf(marta, ines)).toHaveAttribute("aria-live", "polite");
    await expect(anyTyping(ines)).toHaveCount(0);
    await marta.page.screenshot({ path: testInfo.outputPath(`typing-laptop-${theme}.png`) });
    await axe(marta.page);
    // And the other way round, on the phone.
    await field(marta).pressSequentially("Sounds", { delay: 30 });
    await expect(typingOf(ines, marta)).toBeVisible({ timeout: 15_000 });
    await ines.page.screenshot({ path: testInfo.outputPath(`typing-phone-${theme}.png`) });
    await noHorizontalScroll(ines.page);
    await axe(ines.page);
    await field(ines).fill("");
    await field(marta).fill("");
  }

  // Stopped typing: gone about 5 s after the last signal.
  await expect(anyTyping(marta)).toHaveCount(0, { timeout: 10_000 });
  await expect(anyTyping(ines)).toHaveCount(0, { timeout: 10_000 });

  // Her message arrives: the line goes with it, well before the 5 s are up.
  await field(ines).pressSequentially("See you at ten", { delay: 30 });
  await expect(typingOf(marta, ines)).toBeVisible({ timeout: 15_000 });
  await ines.page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(marta.page.getByRole("log", { name: "Messages" }).getByText("See you at ten")).toBeVisible({ timeout: 15_000 });
  await expect(anyTyping(marta)).toHaveCount(0, { timeout: 1_500 });
});
