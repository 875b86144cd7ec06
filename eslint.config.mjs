import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier/flat";
import regexp from "eslint-plugin-regexp";

/** Layer boundaries (README, "Architecture in a few lines"): imports that would cross a layer the wrong way. */
const noDatabase = {
  group: ["@/db", "@/db/*"],
  message: "Only lib/ opens the database: call a domain function from lib/<area>/ instead.",
};
const restrictImports = (...patterns) => ["error", { patterns }];
const belowAdapters = {
  group: ["@/app", "@/app/*", "@/components", "@/components/*"],
  message: "lib/ is below app/ and components/: move the code that needs them up a layer.",
};

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  globalIgnores([".next/**", ".next-*/**", ".data/**", "node_modules/**", "next-env.d.ts", "playwright-report/**", "test-results/**"]),
  // Node serves every request on one thread: a pattern that backtracks is an outage anyone can
  // trigger (the guide: linear regexes). Every pattern is checked, warnings included, as errors.
  {
    ...regexp.configs["flat/recommended"],
    rules: Object.fromEntries(
      Object.entries(regexp.configs["flat/recommended"].rules).map(([rule, level]) => [rule, level === "warn" ? "error" : level]),
    ),
  },
  {
    rules: {
      "regexp/no-super-linear-backtracking": "error",
      "regexp/no-super-linear-move": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // A walk's own browser contexts are closed when it ends (tests/e2e/test.ts): walks take `test` from there.
    files: ["tests/e2e/**"],
    ignores: ["tests/e2e/test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@playwright/test",
              importNames: ["test"],
              message: "Import test from tests/e2e/test.ts: it closes the contexts a walk opens.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["app/**"],
    rules: { "@typescript-eslint/no-restricted-imports": restrictImports(noDatabase) },
  },
  {
    files: ["components/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": restrictImports(noDatabase, {
        // Components reach the server through server actions and API calls; a type is fine.
        group: ["@/lib/**/service", "@/lib/**/queries", "@/lib/mail", "@/lib/mail/*", "@/lib/storage", "@/lib/storage/*", "server-only"],
        allowTypeImports: true,
        message: "Server data modules stay on the server: call a server action or an API route instead.",
      }),
    },
  },
  {
    files: ["lib/**"],
    rules: { "@typescript-eslint/no-restricted-imports": restrictImports(belowAdapters) },
  },
  {
    // The domain convention (README, "Architecture in a few lines"): zod is built in schema files
    // only, so rules.ts stays light for the browser; the field builders, the configuration and the
    // HTTP edge's parsing are the shared exceptions. Naming zod's types is fine anywhere.
    files: ["lib/**"],
    ignores: ["lib/**/schemas.ts", "lib/**/*-schemas.ts", "lib/fields.ts", "lib/env.ts", "lib/http/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [{ name: "zod", allowTypeImports: true, message: "Build zod schemas in the domain's schemas.ts (or a *-schemas.ts)." }],
          patterns: [belowAdapters],
        },
      ],
    },
  },
  {
    // queries.ts reads; writes are service.ts's.
    files: ["lib/**/queries.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.object.name=/^(db|tx)$/][callee.property.name=/^(insert|update|delete)$/]",
          message: "queries.ts only reads: put the write in the domain's service.ts.",
        },
      ],
    },
  },
  // Layout is Prettier's (`npm run lint` checks it): no ESLint rule may argue with it.
  prettier,
]);
