import { encode } from "next-auth/jwt";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cachedDecode } from "@/lib/auth/jwt-cache";

const secret = "a-test-secret-of-at-least-thirty-two-characters";
const salt = "authjs.session-token";
const tokenFor = (claims: Record<string, unknown>, maxAge = 60) => encode({ token: claims, secret, salt, maxAge });

afterEach(() => vi.useRealTimers());

describe("cachedDecode", () => {
  it("decodes a token to its claims, the same on every call, as copies", async () => {
    const token = await tokenFor({ sub: "user-1", sid: "session-1" });
    const first = await cachedDecode({ token, secret, salt });
    expect(first).toMatchObject({ sub: "user-1", sid: "session-1" });
    first!.sub = "changed by a caller";
    expect(await cachedDecode({ token, secret, salt })).toMatchObject({ sub: "user-1", sid: "session-1" });
  });

  it("keeps tokens of different salts apart and refuses a foreign or broken token", async () => {
    const token = await tokenFor({ sub: "user-1", sid: "session-1" });
    expect(await cachedDecode({ token, secret, salt })).not.toBeNull();
    await expect(cachedDecode({ token, secret, salt: "api-access-token" })).rejects.toThrow();
    await expect(cachedDecode({ token: `${token.slice(0, -4)}AAAA`, secret, salt })).rejects.toThrow();
    expect(await cachedDecode({ token: undefined, secret, salt })).toBeNull();
  });

  it("stops answering from memory once the token expires", async () => {
    const token = await tokenFor({ sub: "user-1", sid: "session-1" }, 60);
    expect(await cachedDecode({ token, secret, salt })).not.toBeNull();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 120_000);
    await expect(cachedDecode({ token, secret, salt })).rejects.toMatchObject({ code: "ERR_JWT_EXPIRED" });
  });
});
