import { describe, expect, it } from "vitest";
import { configurationProblem } from "@/lib/env";

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
    expect(configurationProblem({ AUTH_SECRET: SECRET, S3_BUCKET: "photos", S3_ACCESS_KEY_ID: "id" })).toBe(
      "Invalid configuration: S3_BUCKET is set, so set S3_SECRET_ACCESS_KEY, S3_PUBLIC_URL too.",
    );
  });

  it("lets the tests run without a secret", () => {
    expect(configurationProblem({ NODE_ENV: "test" })).toBeNull();
  });
});
