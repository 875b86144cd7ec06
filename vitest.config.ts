import path from "node:path";
import { defineConfig } from "vitest/config";

const root = import.meta.dirname;

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\//, replacement: `${root}/` },
      // `server-only` throws outside React Server Components; tests import server modules directly.
      { find: "server-only", replacement: path.join(root, "tests/support/empty.ts") },
    ],
  },
  test: {
    // postgres.js 3.4.9 can throw from its write scheduler when a connection closes during a
    // database restart (TypeError "reading 'write'" in connection.js nextWrite; the fault test,
    // database-restart.test.ts, provokes it). A server only logs it (Next's uncaughtException
    // handler) and db/supervised-pool.ts replaces the pool; this one driver error is not counted.
    onUnhandledError: (error) => !(error.message?.includes("reading 'write'") && error.stack?.includes("postgres/src/connection.js")),
    projects: [
      {
        extends: true,
        // A few unit tests do real work (the gazetteer's index, a 40-megapixel image, the import
        // graph): 5 s is too short for them on a busy 2-core machine. Speed lives in the bench.
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node", testTimeout: 30_000 },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/support/database-global-setup.ts"],
          setupFiles: ["tests/support/database-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
