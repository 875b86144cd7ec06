import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { configurationProblem, readEnv, seedRefusal } from "@/lib/env";

const SECRET = "s".repeat(40);

describe("configurationProblem (checked at start-up)", () => {
  it("accepts a complete production configuration", () => {
    expect(configurationProblem({ NODE_ENV: "production", AUTH_SECRET: SECRET, APP_URL: "https://couples.example" })).toBeNull();
  });

  it("names AUTH_SECRET when it is missing, in one line", () => {
    const problem = configurationProblem({ NODE_ENV: "production" });
    expect(problem).toMatch(/AUTH_SECRET is missing/);
    expect(problem).not.toContain("\n");
    expect(configurationProblem({ NODE_ENV: "development" })).toMatch(/AUTH_SECRET is missing/);
  });

  it("names the setting that does not parse", () => {
    expect(configurationProblem({ AUTH_SECRET: "short" })).toMatch(/^Invalid configuration: AUTH_SECRET is invalid/);
    expect(configurationProblem({ AUTH_SECRET: SECRET, TRUSTED_PROXY_HOPS: "two" })).toMatch(/TRUSTED_PROXY_HOPS is invalid/);
    expect(configurationProblem({ AUTH_SECRET: SECRET, APP_URL: "not a url" })).toMatch(/APP_URL is invalid/);
    expect(configurationProblem({ AUTH_SECRET: SECRET, PORT: "70000" })).toMatch(/PORT is invalid/);
  });

  it("names the S3 settings a half-configured S3 lacks", () => {
    expect(
      configurationProblem({ AUTH_SECRET: SECRET, S3_BUCKET: "photos", S3_PRIVATE_BUCKET: "photos-private", S3_ACCESS_KEY_ID: "id" }),
    ).toBe("Invalid configuration: S3_BUCKET is set, so set S3_SECRET_ACCESS_KEY, S3_PUBLIC_URL too.");
  });

  it("refuses S3 without a private bucket of its own in every mode: private photos never sit where the public reads", () => {
    const s3 = {
      AUTH_SECRET: SECRET,
      S3_BUCKET: "photos",
      S3_ACCESS_KEY_ID: "id",
      S3_SECRET_ACCESS_KEY: "key",
      S3_PUBLIC_URL: "https://img.example",
    };
    const refusal =
      "Invalid configuration: S3_BUCKET is set, so set S3_PRIVATE_BUCKET too (S3_PRIVATE_BUCKET: another bucket, with no public access).";
    expect(configurationProblem(s3)).toBe(refusal);
    expect(configurationProblem({ ...s3, S3_PRIVATE_BUCKET: "photos" })).toBe(refusal);
    expect(configurationProblem({ ...s3, S3_PRIVATE_BUCKET: "photos-private" })).toBeNull();
  });

  it("refuses serverless mode without a database and S3 storage, naming in one line what to set", () => {
    const base = { NODE_ENV: "production", AUTH_SECRET: SECRET };
    const s3 = {
      S3_BUCKET: "photos",
      S3_PRIVATE_BUCKET: "photos-private",
      S3_ACCESS_KEY_ID: "id",
      S3_SECRET_ACCESS_KEY: "key",
      S3_PUBLIC_URL: "https://img.example",
    };
    expect(configurationProblem({ ...base, VERCEL: "1" })).toBe(
      "Invalid configuration: serverless mode (VERCEL) keeps nothing on local disk; set DATABASE_URL, S3_BUCKET, S3_PRIVATE_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_PUBLIC_URL.",
    );
    expect(configurationProblem({ ...base, SERVERLESS: "1", ...s3 })).toBe(
      "Invalid configuration: serverless mode (SERVERLESS=1) keeps nothing on local disk; set DATABASE_URL.",
    );
    expect(configurationProblem({ ...base, SERVERLESS: "1", DATABASE_URL: "postgres://db/app" })).toMatch(
      /set S3_BUCKET, S3_PRIVATE_BUCKET, S3_ACCESS_KEY_ID/,
    );
    expect(configurationProblem({ ...base, VERCEL: "1", DATABASE_URL: "postgres://db/app", ...s3 })).toBeNull();
    // Private images never share the public bucket there either.
    expect(configurationProblem({ ...base, VERCEL: "1", DATABASE_URL: "postgres://db/app", ...s3, S3_PRIVATE_BUCKET: "photos" })).toMatch(
      /set S3_PRIVATE_BUCKET too/,
    );
    // Not serverless: PGlite and local disk are the defaults.
    expect(configurationProblem(base)).toBeNull();
  });

  it("refuses the tests' and the bench's switches in the production deployment, and only there", () => {
    const production = { NODE_ENV: "production", AUTH_SECRET: SECRET, APP_URL: "https://couples.example", APP_ENV: "production" };
    expect(configurationProblem({ ...production, PUSH_ALLOW_LOCAL_ENDPOINTS: "1" })).toBe(
      "Invalid configuration: PUSH_ALLOW_LOCAL_ENDPOINTS is for tests and the bench only; unset it in production.",
    );
    expect(configurationProblem({ ...production, APP_ENV: undefined, VERCEL_ENV: "production", BENCH_BARE: "1" })).toMatch(
      /BENCH_BARE is for tests/,
    );
    // The outbox holds reset and invitation links: never opened in production.
    expect(configurationProblem({ ...production, ENABLE_DEV_OUTBOX: "true" })).toBe(
      "Invalid configuration: ENABLE_DEV_OUTBOX is for tests and the bench only; unset it in production.",
    );
    expect(configurationProblem({ ...production, APP_ENV: "preview", PUSH_ALLOW_LOCAL_ENDPOINTS: "1", BENCH_BARE: "1" })).toBeNull();
    expect(configurationProblem({ ...production, APP_ENV: "preview", ENABLE_DEV_OUTBOX: "true" })).toBeNull();
    expect(configurationProblem({ ...production, APP_ENV: undefined, PUSH_ALLOW_LOCAL_ENDPOINTS: "1" })).toBeNull();
  });

  it("lets the tests run without a secret", () => {
    expect(configurationProblem({ NODE_ENV: "test" })).toBeNull();
  });

  it("takes the app's own address on PORT as the public origin when APP_URL is not set", () => {
    expect(readEnv({ PORT: "3005" }).APP_URL).toBe("http://localhost:3005");
    expect(readEnv({}).APP_URL).toBe("http://localhost:3000");
    expect(readEnv({ PORT: "3005", APP_URL: "https://couples.example" }).APP_URL).toBe("https://couples.example");
  });
});

describe("the seed (npm run db:seed) in the production deployment", () => {
  const refusal = "The seed writes accounts with a public password (DEMO_PASSWORD): it never runs in the production deployment.";

  it("is refused when either APP_ENV or VERCEL_ENV names production, and only then", () => {
    const seedIn = (APP_ENV?: string, VERCEL_ENV?: string) => seedRefusal({ APP_ENV, VERCEL_ENV });
    expect(seedIn("production")).toBe(refusal);
    expect(seedIn(undefined, "production")).toBe(refusal);
    expect(seedIn("production", "preview")).toBe(refusal);
    expect(seedIn("preview", "production")).toBe(refusal);
    expect(seedIn(undefined, "preview")).toBeNull();
    expect(seedIn("preview")).toBeNull();
    expect(seedIn()).toBeNull();
  });

  it("stops the script before it opens the database, for the demo and the bench's --scale alike", async () => {
    for (const args of [["--brief"], ["--scale"]]) {
      const run = promisify(execFile)("node_modules/.bin/tsx", ["--conditions", "react-server", "scripts/seed/main.ts", ...args], {
        // A database that is not there: reaching it would fail with another message.
        env: { ...process.env, NODE_ENV: "production", APP_ENV: "production", DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" },
      });
      await expect(run).rejects.toMatchObject({ code: 1, stderr: `db:seed failed: ${refusal}\n` });
    }
  }, 60_000);
});
