import { test as playwrightTest } from "@playwright/test";

export { expect } from "@playwright/test";

/**
 * Playwright's `test` with one rule every walk keeps: a browser context the walk opened itself
 * (`browser.newContext()`: a partner, the other couple) is closed when the walk ends, passed or
 * failed. The browser lives as long as its worker, so a context left open keeps its pages running
 * (live streams, timers, the server's work for them) beside every later walk, and the run slows as
 * they pile up. Walks import `test` from here (the lint rule says so).
 */
export const test = playwrightTest.extend<{ closeOpenedContexts: void }>({
  closeOpenedContexts: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use();
      await Promise.all(
        browser
          .contexts()
          .filter((context) => !before.has(context))
          .map((context) => context.close()),
      );
    },
    { auto: true },
  ],
});
