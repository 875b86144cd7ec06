import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier/flat";

/** Layer boundaries (README, "Architecture in a few lines"): imports that would cross a layer the wrong way. */
const noDatabase = {
  group: ["@/db", "@/db/*"],
  message: "Only lib/ opens the database: call a domain function from lib/<area>/ instead.",
};
const restrictImports = (...patterns) => ["error", { patterns }];

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  globalIgnores([".next/**", ".next-*/**", ".data/**", "node_modules/**", "next-env.d.ts", "playwright-report/**", "test-results/**"]),
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
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
    rules: {
      "@typescript-eslint/no-restricted-imports": restrictImports({
        group: ["@/app", "@/app/*", "@/components", "@/components/*"],
        message: "lib/ is below app/ and components/: move the code that needs them up a layer.",
      }),
    },
  },
  // Layout is Prettier's (`npm run lint` checks it): no ESLint rule may argue with it.
  prettier,
]);
