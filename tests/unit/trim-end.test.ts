import { describe, expect, it } from "vitest";
import { isSlash, trimEndWhere } from "@/lib/trim-end";
import { routeKind } from "@/lib/auth/guard";
import { describeDevice } from "@/lib/auth/device";
import { CPU_BUDGET_MS, cpuMillis } from "@/tests/support/cpu";

describe("trimEndWhere", () => {
  it("drops only the trailing run", () => {
    expect(trimEndWhere("/forum///", isSlash)).toBe("/forum");
    expect(trimEndWhere("a//b", isSlash)).toBe("a//b");
    expect(trimEndWhere("///", isSlash)).toBe("");
    expect(trimEndWhere("", isSlash)).toBe("");
  });

  it("stays linear on a long run that does not end the text (where /\\/+$/ is quadratic)", () => {
    const path = `/${"/".repeat(50_000)}x`;
    expect(cpuMillis(() => routeKind(path))).toBeLessThan(CPU_BUDGET_MS);
  });
});

describe("describeDevice on a hostile User-Agent", () => {
  it("reads a bounded head: repeated 'Version/1' without 'Safari/' costs no more than a real one", () => {
    const userAgent = "Version/1".repeat(2_000);
    expect(describeDevice(userAgent)).toBe("Unknown device");
    expect(cpuMillis(() => describeDevice(userAgent))).toBeLessThan(CPU_BUDGET_MS);
  });
});
