import { afterEach, describe, expect, it, vi } from "vitest";

const refreshSessionAction = vi.fn<() => Promise<void>>();
vi.mock("@/app/(auth)/actions", () => ({ refreshSessionAction: () => refreshSessionAction() }));

const { leaveWithFreshSession } = await import("@/components/auth/leaveWithFreshSession");

const fakeRouter = () => ({ push: vi.fn(), replace: vi.fn() });

afterEach(() => {
  refreshSessionAction.mockReset();
  vi.restoreAllMocks();
});

describe("leaveWithFreshSession", () => {
  it("refreshes the session's flags before navigating, pushing or replacing as asked", async () => {
    const order: string[] = [];
    refreshSessionAction.mockImplementation(async () => void order.push("refresh"));
    const router = fakeRouter();
    router.replace.mockImplementation((to: string) => order.push(`replace ${to}`));
    await leaveWithFreshSession(router, "/dashboard", { replace: true });
    expect(order).toEqual(["refresh", "replace /dashboard"]);

    await leaveWithFreshSession(router, "/invite-partner");
    expect(router.push).toHaveBeenCalledWith("/invite-partner");
  });

  it("still navigates when the refresh fails, so the button never does nothing", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    refreshSessionAction.mockRejectedValue(new Error("network down"));
    const router = fakeRouter();
    await expect(leaveWithFreshSession(router, "/dashboard", { replace: true })).resolves.toBeUndefined();
    expect(router.replace).toHaveBeenCalledWith("/dashboard");
  });
});
