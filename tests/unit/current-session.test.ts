import { afterEach, describe, expect, it, vi } from "vitest";

const auth = vi.fn<() => Promise<{ claims: { sub?: string } } | null>>();
vi.mock("@/lib/auth/auth", () => ({ auth: () => auth() }));
vi.mock("@/db/client", () => ({ getDb: async () => ({}) }));

const { requireActionUserId } = await import("@/lib/auth/current-session");

afterEach(() => auth.mockReset());

describe("requireActionUserId", () => {
  it("answers the signed-in caller's id", async () => {
    auth.mockResolvedValue({ claims: { sub: "user-1" } });
    await expect(requireActionUserId()).resolves.toBe("user-1");
  });

  it("refuses a signed-out caller with UNAUTHENTICATED", async () => {
    for (const session of [null, { claims: {} }]) {
      auth.mockResolvedValue(session);
      await expect(requireActionUserId()).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    }
  });
});
