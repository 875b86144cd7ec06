import { describe, expect, it } from "vitest";
import { describeError } from "@/lib/log";

describe("describeError", () => {
  it("keeps class, code and where, and drops double-quoted values from the message", () => {
    let parseError: unknown;
    try {
      JSON.parse('{"email": "ada@example.com"');
    } catch (error) {
      parseError = error;
    }
    const described = describeError(Object.assign(parseError as Error, { code: "E_JSON" }));
    expect(described).toMatchObject({ name: "SyntaxError", code: "E_JSON" });
    expect(JSON.stringify(described)).not.toContain("ada@example.com");
    expect(described.stack).toMatch(/^at /);
  });

  it("drops Drizzle's params tail and logs the driver's error it wraps", () => {
    const driver = Object.assign(new Error('invalid input syntax for type uuid: "ada@example.com"'), { code: "22P02" });
    const wrapped = new Error('Failed query: select "id" from "users" where "id" = $1\nparams: ada@example.com', { cause: driver });
    expect(describeError(wrapped)).toMatchObject({ name: "Error", code: "22P02", message: 'invalid input syntax for type uuid: "…"' });
    const bare = describeError(new Error("Failed query: select 1\nparams: ada@example.com"));
    expect(bare.message).toBe("Failed query: select 1");
  });

  it("says nothing of a thrown value that is not an Error", () => {
    expect(describeError("ada@example.com")).toEqual({ name: "string", message: "(not an Error)" });
  });
});
