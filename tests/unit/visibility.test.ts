import { describe, expect, it } from "vitest";
import { isDiscoverable, viewerOf, type CoupleFacts } from "@/lib/safety/visibility";

describe("isDiscoverable", () => {
  it("needs both an active status and the visibility flag", () => {
    expect(isDiscoverable({ status: "active", isVisible: true })).toBe(true);
    expect(isDiscoverable({ status: "active", isVisible: false })).toBe(false);
    expect(isDiscoverable({ status: "pending", isVisible: true })).toBe(false);
  });
});

describe("viewerOf", () => {
  const seen: CoupleFacts = { status: "active", isVisible: true, own: false, blockedEitherWay: false };

  it("lets another couple see a discoverable couple no block stands between", () => {
    expect(viewerOf(seen)).toBe("other");
  });

  it.each([
    ["hidden by its flag", { isVisible: false }],
    ["suspended", { status: "suspended" }],
    ["not yet active", { status: "pending" }],
    ["blocked either way", { blockedEitherWay: true }],
  ])("shows nothing of a couple %s to another couple", (_, change) => {
    expect(viewerOf({ ...seen, ...change })).toBeNull();
  });

  it("always shows a couple to its own partners, hidden, suspended or not", () => {
    expect(viewerOf({ ...seen, own: true })).toBe("own");
    expect(viewerOf({ status: "suspended", isVisible: false, own: true, blockedEitherWay: false })).toBe("own");
  });
});
