import { createRequire } from "node:module";
import { readFile } from "node:fs/promises";
import { expect, type Locator, type Page } from "@playwright/test";

/** The checks every page passes: the sizes and themes it is looked at in, no sideways scroll, axe-core clean. */

const require = createRequire(import.meta.url);
const AXE = require.resolve("axe-core");

export const PHONE = { width: 390, height: 844 };
export const LAPTOP = { width: 1280, height: 800 };
/** The narrowest phone the product supports (guide: 360 px works). */
export const NARROW = { width: 360, height: 780 };
export const THEMES = ["light", "dark"] as const;

export async function noHorizontalScroll(page: Page) {
  const widths = await page.evaluate(() => {
    const client = document.documentElement.clientWidth;
    // The innermost elements reaching past the screen's edge, to name in the failure.
    const past = [...document.querySelectorAll("body *")]
      .filter((element) => element.getBoundingClientRect().right > client + 1 && element.children.length === 0)
      .slice(0, 3)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className} "${element.textContent?.slice(0, 30)}"`);
    return { scroll: document.documentElement.scrollWidth, client, past };
  });
  expect(widths.scroll, `${page.url()} scrolls sideways: ${widths.past.join(", ")}`).toBeLessThanOrEqual(widths.client);
}

/**
 * A whole 44 px touch target (guide: phone first, 44 px targets): at least 44 px tall, and what a
 * finger finds at its top, middle and bottom is the target itself, not something laid over it
 * (looked at on the screen: scrolled to first, as a finger would).
 */
export async function wholeTarget(target: Locator) {
  await target.scrollIntoViewIfNeeded();
  const box = (await target.boundingBox())!;
  expect(box.height, `${target} is ${box.height} px tall`).toBeGreaterThanOrEqual(44);
  const covered = await target.evaluate((element) => {
    const { left, top, width, height } = element.getBoundingClientRect();
    return [top + 2, top + height / 2, top + height - 2]
      .map((y) => document.elementFromPoint(left + width / 2, y))
      .filter((found) => !found || !element.contains(found))
      .map((found) => (found ? `${found.tagName.toLowerCase()}.${found.className}` : "nothing"));
  });
  expect(covered, `${target} is covered`).toEqual([]);
}

type AxeNode = { target: unknown; failureSummary?: string };
type AxeResult = { violations: { id: string; nodes: AxeNode[] }[] };
type Axe = { run(options: { rules: Record<string, { enabled: boolean }> }): Promise<AxeResult> };

/**
 * No axe-core violation on the page as it stands, WCAG 2.2's target size (24 px, or room around a
 * smaller target) included: axe leaves that rule off by default. It runs with the window scrolled
 * to the top (and put back after): axe counts a target that has scrolled under the sticky top bar
 * as too small, which is where the page was scrolled, not how big the target is.
 */
export async function axe(page: Page, context = page.url()) {
  // After a client navigation Next puts the new page's <title> in a moment after its content (its
  // metadata streams last): axe reads the page once it has one, as it has on a full load.
  await expect(page, context).toHaveTitle(/\S/);
  // Evaluated, not added as an inline <script>: the prerendered pages' policy allows inline scripts by hash only.
  await page.evaluate(await readFile(AXE, "utf8"));
  const violations = await page.evaluate(async () => {
    const scrolled = window.scrollY;
    window.scrollTo(0, 0);
    const result = await (window as unknown as { axe: Axe }).axe.run({ rules: { "target-size": { enabled: true } } });
    window.scrollTo(0, scrolled);
    // Each node with the first reason axe gives (its summary's second line: the first says 'Fix any of the following').
    const node = (n: AxeNode) => `${JSON.stringify(n.target)} (${n.failureSummary?.split("\n")[1]?.trim() ?? ""})`;
    return result.violations.map((v) => `${v.id}: ${v.nodes.map(node).join(" ")}`);
  });
  expect(violations, context).toEqual([]);
}
