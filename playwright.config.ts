import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3100);
export const BASE_URL = `http://localhost:${PORT}`;

/**
 * Browser tests drive Debian's Chromium (never a downloaded browser) against a production build
 * served by scripts/e2e-server.sh on a fresh database.
 */
export default defineConfig({
  testDir: "tests/e2e",
  // Runs on other ports (E2E_PORT) keep their traces apart instead of clearing each other's.
  outputDir: `test-results/port-${PORT}`,
  // A walk's own budget, not a speed check (speed lives in the bench): on a slow day this 2-core
  // machine, serving and driving two walks at once, takes a short walk past 60 s.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: BASE_URL,
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
  webServer: {
    command: "bash scripts/e2e-server.sh",
    url: `${BASE_URL}/login`,
    timeout: 420_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: { E2E_PORT: String(PORT) },
  },
});
