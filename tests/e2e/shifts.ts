import type { Page } from "@playwright/test";

/**
 * What a page does as it loads, for the speed walks: its script policy violations and its layout
 * shifts (Lighthouse's CLS counts these), with the CPU slowed 4x as Lighthouse's phone does.
 */

type Shift = { value: number; sources: string[] };
export type Measured = { violations: string[]; shifts: Shift[] };

/**
 * Records every CSP violation (the DOM event, not only the console) and every layout shift not
 * caused by input, with the elements that moved; the page's CPU runs 4x slower from here on.
 */
export async function instrument(page: Page): Promise<() => Promise<Measured>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await page.addInitScript(() => {
    const w = window as unknown as { __violations: string[]; __shifts: Shift[] };
    w.__violations = [];
    w.__shifts = [];
    document.addEventListener("securitypolicyviolation", (event) =>
      w.__violations.push(`${event.effectiveDirective} ${event.blockedURI} ${event.sample}`),
    );
    type LayoutShift = PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
      sources: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
    };
    const describe = (node: Node | null) =>
      node instanceof Element ? node.outerHTML.slice(0, 100) : (node?.textContent ?? "?").slice(0, 60);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as LayoutShift[]) {
        if (entry.hadRecentInput) continue;
        const sources = entry.sources.map(
          ({ node, previousRect: a, currentRect: b }) => `${describe(node)} moved from (${a.x}, ${a.y}) to (${b.x}, ${b.y})`,
        );
        w.__shifts.push({ value: entry.value, sources });
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
  const console: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) console.push(message.text());
  });
  return async () => {
    await page.waitForLoadState("networkidle");
    const { violations, shifts } = await page.evaluate(() => {
      const w = window as unknown as { __violations: string[]; __shifts: Shift[] };
      return { violations: w.__violations, shifts: w.__shifts };
    });
    return { violations: [...violations, ...console], shifts };
  };
}
