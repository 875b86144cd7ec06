import { describe, expect, it } from "vitest";
import { greeting, WELCOME_VISIT_MS } from "@/lib/dashboard/rules";

describe("greeting", () => {
  const first = new Date("2026-05-01T10:00:00Z");
  it("says 'Welcome' through the first visit, the page rendered again after an action included", () => {
    expect(greeting(first, first)).toBe("Welcome");
    expect(greeting(first, new Date(first.getTime() + WELCOME_VISIT_MS - 1))).toBe("Welcome");
  });

  it("says 'Welcome back' on every visit after", () => {
    expect(greeting(first, new Date(first.getTime() + WELCOME_VISIT_MS))).toBe("Welcome back");
    expect(greeting(first, new Date("2026-06-01T10:00:00Z"))).toBe("Welcome back");
  });
});
