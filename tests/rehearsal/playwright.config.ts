import { defineConfig } from "@playwright/test";

/**
 * The rehearsal's browser journeys (scripts/rehearse.ts starts the deployment and runs them):
 * Debian's Chromium against the local edge in front of two instances, nothing else.
 */
export default defineConfig({
  testDir: ".",
  outputDir: "../../test-results/rehearsal",
  timeout: 240_000,
  expect: { timeout: 20_000 },
  workers: 2,
  // As the browser tests: on CI a journey that fails once is tried again and reported flaky.
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"]],
  use: {
    baseURL: process.env.REHEARSE_ORIGIN ?? "http://localhost:3300",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
});
