import { createRequire } from "node:module";
import { readFile } from "node:fs/promises";
import { expect, type Page } from "@playwright/test";

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

export async function axe(page: Page) {
  // Evaluated, not added as an inline <script>: the prerendered pages' policy allows inline scripts by hash only.
  await page.evaluate(await readFile(AXE, "utf8"));
  const violations = await page.evaluate(async () => {
    const result = await (
      window as unknown as { axe: { run(): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> } }
    ).axe.run();
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(" ")}`);
  });
  expect(violations, page.url()).toEqual([]);
}
