import { describe, expect, it } from "vitest";
import { bioCounterText, bioCounterTone, bioHint } from "@/lib/couples/rules";
import { togglePick } from "@/lib/onboarding/picks";

describe("bio counter", () => {
  it.each([
    [0, "error"],
    [9, "error"],
    [10, "warning"],
    [199, "warning"],
    [200, "success"],
    [799, "success"],
    [800, "warning"],
    [949, "warning"],
    [950, "error"],
    [1000, "error"],
    [1200, "error"],
  ])("at %i characters is %s", (length, tone) => {
    expect(bioCounterTone(length)).toBe(tone);
  });

  it("reads 'n/1000 characters'", () => {
    expect(bioCounterText(0)).toBe("0/1000 characters");
    expect(bioCounterText(42)).toBe("42/1000 characters");
  });

  it.each([
    [0, "Tell us more about your adventures together..."],
    [9, "Tell us more about your adventures together..."],
    [10, "Great start! Keep sharing..."],
    [99, "Great start! Keep sharing..."],
    [100, "Perfect! This gives others a real sense of who you are."],
    [1000, "Perfect! This gives others a real sense of who you are."],
  ])("hint at %i characters", (length, hint) => {
    expect(bioHint(length)).toBe(hint);
  });
});

describe("picks with a ceiling", () => {
  it("adds a new value and removes a picked one", () => {
    expect(togglePick(["a"], "b", 3)).toEqual(["a", "b"]);
    expect(togglePick(["a", "b"], "a", 3)).toEqual(["b"]);
  });

  it("ignores a pick beyond the ceiling but still lets one go", () => {
    expect(togglePick(["a", "b", "c"], "d", 3)).toEqual(["a", "b", "c"]);
    expect(togglePick(["a", "b", "c"], "b", 3)).toEqual(["a", "c"]);
  });
});
