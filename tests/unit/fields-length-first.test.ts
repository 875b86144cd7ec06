import { describe, expect, it } from "vitest";
import { boundedString, oneLine, requiredString, trimmedString } from "@/lib/fields";
import { nameSchema } from "@/lib/auth/schemas";
import { coupleBioField } from "@/lib/couples/schemas";

const codes = (result: { error?: { issues: { code: string }[] } }) => result.error?.issues.map((issue) => issue.code) ?? [];

describe("length before pattern: every text field stops at its length issue", () => {
  it("boundedString refuses an over-long value with that one issue; no refinement or pattern runs on it", () => {
    let ran = false;
    const field = boundedString(10, "Too long").refine(() => (ran = true));
    expect(codes(field.safeParse("x".repeat(11)))).toEqual(["too_big"]);
    expect(ran).toBe(false);
  });

  it("trimmedString forgives white space around the text, measures it trimmed, and refuses a raw value past twice the limit first", () => {
    const field = oneLine(trimmedString(5, "Too long"), "Not allowed");
    expect(field.parse("  abcde  ")).toBe("abcde");
    expect(codes(field.safeParse("abcdef"))).toEqual(["too_big"]);
    expect(codes(field.safeParse(`${" ".repeat(11)}\n`))).toEqual(["too_big"]);
  });

  it("holds for the shared builders and the domains' fields", () => {
    const hostile = `${"@.".repeat(6000)}\u0000`;
    expect(codes(requiredString(50, "Required", "Too long", "Not allowed").safeParse(hostile))).toEqual(["too_big"]);
    expect(codes(nameSchema("First name").safeParse(hostile))).toEqual(["too_big"]);
    expect(codes(coupleBioField.safeParse(hostile.repeat(10)))).toEqual(["too_big"]);
  });
});
