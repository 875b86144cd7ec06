import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { authenticate, liftSignInLocks } from "@/lib/auth/credentials";
import { POST as postChangePassword } from "@/app/api/auth/change-password/route";
import { POST as postConfirmEmail } from "@/app/api/auth/confirm-email/route";
import { changePassword, requestEmailChange } from "@/lib/auth/account-security";
import { deviceCookieName, issueDeviceToken } from "@/lib/auth/device-cookie";
import { queuePasswordReset, resetPassword } from "@/lib/auth/password-reset";
import { PASSWORD_SLOT_WAIT_MS, withPasswordSlot } from "@/lib/auth/password";
import { hashToken } from "@/lib/auth/secrets";
import { AppError } from "@/lib/errors";
import { LIMITS } from "@/lib/rate-limit";
import { registerAccount } from "@/lib/registration/service";
import { PASSWORD_SLOTS } from "@/lib/thread-pool";
import { ENDED_WITH_OLD_PASSWORD } from "@/lib/registry/old-password";
import { PASSWORD, browserSession, call, createUser, freshAddress } from "../support/api";
import { apiSession, bearer, linkInLatestMail, passwordGrant } from "../support/flows";

/** The strangers' one address: the lock is per account and address together. */
const STRANGERS = freshAddress();

/** A sign-in as the browser's server action makes it, from the strangers' address unless told: with or without a device cookie. */
async function signIn(email: string, password: string, deviceToken?: string, clientAddress = STRANGERS): Promise<string> {
  try {
    await authenticate(await getDb(), { email, password }, { clientAddress, deviceToken });
    return "ok";
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

/** The device cookie a browser gets when it signs in to the user's account with its current password. */
const deviceOf = (user: { email: string; passwordHash: string }) =>
  issueDeviceToken({ email: user.email, credential: hashToken(user.passwordHash) });

/** The device cookie a response sets, if any. */
const deviceCookieSetBy = (res: Awaited<ReturnType<typeof call>>) =>
  res.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!)
    .find((cookie) => cookie.startsWith(`${deviceCookieName()}=`))
    ?.slice(deviceCookieName().length + 1);

const lockOut = async (email: string, deviceToken?: string) => {
  for (let i = 0; i < 5; i++) expect(await signIn(email, `Wrong-${i}`, deviceToken)).toBe("INVALID_CREDENTIALS");
};

describe("the account lock and the device cookie", () => {
  it("does not lock out a browser that signed in to the account before when strangers lock it", async () => {
    const user = await createUser();
    const device = deviceOf(user);
    await lockOut(user.email);
    expect(await signIn(user.email, PASSWORD)).toBe("ACCOUNT_LOCKED");
    expect(await signIn(user.email, PASSWORD, device)).toBe("ok");
  });

  it("trusts a device cookie only for the account it was issued for, and never a forged one", async () => {
    const user = await createUser();
    const other = await createUser();
    await lockOut(user.email);
    const [nonce] = deviceOf(user).split(".");
    for (const token of [deviceOf(other), `${nonce}.forged`, "garbage", ""]) {
      expect(await signIn(user.email, PASSWORD, token), token).toBe("ACCOUNT_LOCKED");
    }
  });

  it("counts a trusted device's failures for that device alone", async () => {
    const user = await createUser();
    const device = deviceOf(user);
    await lockOut(user.email, device);
    expect(await signIn(user.email, PASSWORD, device)).toBe("ACCOUNT_LOCKED");
    expect(await signIn(user.email, PASSWORD, deviceOf(user))).toBe("ok");
    expect(await signIn(user.email, PASSWORD)).toBe("ok");
  });
});

describe("the device cookie after the password changes", () => {
  const NEW_PASSWORD = "Brand-New-Pass9?";

  it("trusts no browser that signed in before a password reset: strangers' failures lock it out again", async () => {
    const user = await createUser();
    const device = deviceOf(user);
    const { emailIds } = await queuePasswordReset(await getDb(), user.email);
    expect(emailIds).toHaveLength(1);
    const token = (await linkInLatestMail(user.email)).searchParams.get("token")!;
    await resetPassword(await getDb(), { token, password: NEW_PASSWORD }, ENDED_WITH_OLD_PASSWORD);
    await lockOut(user.email);
    expect(await signIn(user.email, NEW_PASSWORD, device)).toBe("ACCOUNT_LOCKED");
  });

  it("trusts no browser that signed in before a password change", async () => {
    const user = await createUser();
    const device = deviceOf(user);
    const { sid } = await browserSession(user.id);
    await changePassword(
      await getDb(),
      { userId: user.id, sessionId: sid },
      { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
      ENDED_WITH_OLD_PASSWORD,
    );
    await lockOut(user.email);
    expect(await signIn(user.email, NEW_PASSWORD, device)).toBe("ACCOUNT_LOCKED");
  });

  it("still trusts the browser that made the change: its answer carries a device cookie for the new password", async () => {
    const user = await createUser();
    const session = await browserSession(user.id);
    const res = await call(postChangePassword, "POST", "/api/auth/change-password", {
      body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
      headers: { cookie: `${session.cookie}; ${deviceCookieName()}=${deviceOf(user)}`, "x-csrf-token": session.csrf },
    });
    expect(res.status).toBe(200);
    const device = deviceCookieSetBy(res);
    expect(device).toBeDefined();
    await lockOut(user.email);
    expect(await signIn(user.email, NEW_PASSWORD)).toBe("ACCOUNT_LOCKED");
    expect(await signIn(user.email, NEW_PASSWORD, device)).toBe("ok");
  });
});

describe("the device cookie after an e-mail change", () => {
  it("still trusts the browser that confirmed the change under the new address; one trusted for the old address is not", async () => {
    const user = await createUser();
    const session = await browserSession(user.id);
    const otherBrowser = deviceOf(user);
    const newEmail = `moved-${Date.now()}@example.com`;
    await requestEmailChange(await getDb(), user.id, { password: PASSWORD, newEmail });
    const token = (await linkInLatestMail(newEmail)).searchParams.get("token")!;
    const res = await call(postConfirmEmail, "POST", "/api/auth/confirm-email", {
      body: { token },
      headers: { cookie: `${session.cookie}; ${deviceCookieName()}=${deviceOf(user)}`, "x-csrf-token": session.csrf },
    });
    expect(res.status).toBe(200);
    const device = deviceCookieSetBy(res);
    expect(device).toBeDefined();
    await lockOut(newEmail);
    expect(await signIn(newEmail, PASSWORD)).toBe("ACCOUNT_LOCKED");
    expect(await signIn(newEmail, PASSWORD, otherBrowser)).toBe("ACCOUNT_LOCKED");
    expect(await signIn(newEmail, PASSWORD, device)).toBe("ok");
  });

  it("sets no device cookie for an API client's confirmation", async () => {
    const user = await createUser();
    const newEmail = `moved-api-${Date.now()}@example.com`;
    await requestEmailChange(await getDb(), user.id, { password: PASSWORD, newEmail });
    const token = (await linkInLatestMail(newEmail)).searchParams.get("token")!;
    const { access_token } = await apiSession(user.email);
    const res = await call(postConfirmEmail, "POST", "/api/auth/confirm-email", { body: { token }, headers: bearer(access_token) });
    expect(res.status).toBe(200);
    expect(deviceCookieSetBy(res)).toBeUndefined();
  });
});

describe("the account's count from everywhere", () => {
  it("locks the account at every address once guesses spread over many add up, except for a browser that signed in before; a reset lifts it", async () => {
    const user = await createUser();
    const device = deviceOf(user);
    for (let i = 0; i < LIMITS.signInPerAccountEverywhere.limit; i++)
      expect(await signIn(user.email, `Wrong-${i}`, undefined, freshAddress())).toBe("INVALID_CREDENTIALS");
    expect(await signIn(user.email, PASSWORD, undefined, freshAddress())).toBe("ACCOUNT_LOCKED");
    expect(await signIn(user.email, PASSWORD, device, freshAddress())).toBe("ok");
    await liftSignInLocks(await getDb(), user.email);
    expect(await signIn(user.email, PASSWORD, undefined, freshAddress())).toBe("ok");
  });

  it("checks no more guesses than it counts when they come from many addresses at once", async () => {
    const user = await createUser();
    const outcomes = await Promise.all(Array.from({ length: 30 }, (_, i) => signIn(user.email, `Wrong-${i}`, undefined, freshAddress())));
    expect(outcomes.filter((outcome) => outcome === "INVALID_CREDENTIALS").length).toBeLessThanOrEqual(
      LIMITS.signInPerAccountEverywhere.limit,
    );
    expect(outcomes.every((outcome) => ["INVALID_CREDENTIALS", "ACCOUNT_LOCKED", "SERVICE_UNAVAILABLE"].includes(outcome))).toBe(true);
  });
});

describe("the account lock of an IPv6 client", () => {
  const from = (address: string) => ({ "x-forwarded-for": address });

  it("holds for every address of the /64 the failures came from, and not for another /64", async () => {
    const user = await createUser();
    for (let i = 1; i <= 5; i++) {
      const refused = await passwordGrant(user.email, `Wrong-${i}`, from(`2001:db8:64:1::${i}`));
      expect(refused.json.error.code).toBe("INVALID_CREDENTIALS");
    }
    const rotated = await passwordGrant(user.email, PASSWORD, from("2001:db8:64:1:ffff:ffff:ffff:fffe"));
    expect(rotated.status).toBe(429);
    expect(rotated.json.error.code).toBe("ACCOUNT_LOCKED");
    expect((await passwordGrant(user.email, PASSWORD, from("2001:db8:64:2::1"))).status).toBe(200);
  });
});

describe("bounded password hashing", () => {
  it("refuses a sign-in with 503 and Retry-After when every slot stays busy past the wait, and serves it once one frees", async () => {
    const user = await createUser();
    let free!: () => void;
    const busy = new Promise<void>((resolve) => (free = resolve));
    const holders = Array.from({ length: PASSWORD_SLOTS }, () => withPasswordSlot(() => busy));
    const started = Date.now();
    const refused = await passwordGrant(user.email);
    expect(Date.now() - started).toBeGreaterThanOrEqual(PASSWORD_SLOT_WAIT_MS - 50);
    expect(refused.status).toBe(503);
    expect(refused.json.error).toEqual({
      code: "SERVICE_UNAVAILABLE",
      message: "The service is temporarily unavailable. Please try again later.",
    });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const waiting = passwordGrant(user.email);
    free();
    await Promise.all(holders);
    expect((await waiting).status).toBe(200);
  });

  it("runs a registration's hashing in the same slots: refused with 503 while every slot stays busy", async () => {
    let free!: () => void;
    const busy = new Promise<void>((resolve) => (free = resolve));
    const holders = Array.from({ length: PASSWORD_SLOTS }, () => withPasswordSlot(() => busy));
    const register = async () =>
      registerAccount(
        await getDb(),
        { email: `slots-${Date.now()}@example.com`, password: PASSWORD, firstName: "Ada", lastName: "Lovelace", dateOfBirth: "1990-05-17" },
        { clientAddress: freshAddress() },
      );
    await expect(register()).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    free();
    await Promise.all(holders);
    await expect(register()).resolves.toMatchObject({ user: { firstName: "Ada" } });
  });
});
