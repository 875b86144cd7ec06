/**
 * A new password (a reset, or a change) is when someone else may have had the old one: partner A's
 * pending invitation, which whoever held the password could have sent to their own address, ends
 * with it (both its links), as 'Cancel' ends it, and so does a partner 2 who joined through its
 * shareable link and never proved the address. Through the form's server action and the API's route.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { POST as changePasswordRoute } from "@/app/api/auth/change-password/route";
import { POST as verify } from "@/app/api/email-verification/verify/route";
import { getDb } from "@/db/client";
import { couples, invitations, users } from "@/db/schema";
import { queuePasswordReset } from "@/lib/auth/password-reset";
import { partnerView } from "@/lib/invitations/manage";
import { PASSWORD, call } from "../support/api";
import { linkInLatestMail } from "../support/flows";
import { acceptWith, invited, load, partnerA, partnerEmail } from "../support/invitations";

vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-forwarded-for": "198.51.100.41" }),
  cookies: async () => ({ get: () => undefined, set: () => undefined, delete: () => undefined }),
}));
vi.mock("@/lib/auth/auth", () => ({ auth: async () => null, SignInRefused: class extends Error {} }));
vi.mock("@/lib/auth/browser-session", () => ({ endBrowserSession: async () => undefined, signInReplacingSession: async () => undefined }));

const { resetPasswordAction } = await import("@/app/(auth)/actions");

const NEW_PASSWORD = "Brand-New-Pass9?";

type Inviter = Awaited<ReturnType<typeof partnerA>>;

/** The owner answers with a new password: through the reset e-mail's form, or the settings' change. */
async function newPassword(inviter: Inviter, how: "reset" | "change") {
  if (how === "reset") {
    await queuePasswordReset(await getDb(), inviter.user.email);
    const token = (await linkInLatestMail(inviter.user.email)).searchParams.get("token")!;
    expect(await resetPasswordAction(token, NEW_PASSWORD)).toMatchObject({ ok: true });
  } else {
    const res = await call(changePasswordRoute, "POST", "/api/auth/change-password", {
      headers: inviter.headers,
      body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(res.status).toBe(200);
  }
}

describe("a new password and partner A's pending invitation", () => {
  for (const how of ["reset", "change"] as const) {
    it(`ends the invitation on a password ${how}: neither its e-mailed nor its shareable link lets anyone join`, async () => {
      const inviter = await partnerA();
      // Sent by whoever knew the old password, to their own address.
      const taker = await invited(inviter, partnerEmail("taker"));
      await newPassword(inviter, how);

      for (const token of [taker.token, taker.shareToken]) {
        expect((await load(token)).json.error.code, how).toBe("INVALID_INVITATION");
        expect((await acceptWith(token)).json.error.code, how).toBe("INVALID_INVITATION");
      }
      const db = await getDb();
      const [couple] = await db.select({ partner2Id: couples.partner2Id }).from(couples).where(eq(couples.id, inviter.coupleId));
      expect(couple!.partner2Id).toBeNull();
      // Partner A sees no invitation waiting, and may invite again.
      expect(await partnerView(db, inviter.user.id)).toEqual({ kind: "none", canInvite: true });
    });

    it(`on a password ${how}, removes a partner 2 who joined through the shareable link and never proved the address`, async () => {
      const inviter = await partnerA();
      const taker = await invited(inviter, partnerEmail("taker"));
      const claim = await acceptWith(taker.shareToken);
      expect(claim.status).toBe(200);
      const verificationToken = (await linkInLatestMail(taker.email)).searchParams.get("token")!;
      await newPassword(inviter, how);

      const db = await getDb();
      expect(await db.select({ id: users.id }).from(users).where(eq(users.id, claim.json.user.id))).toEqual([]);
      const [couple] = await db.select({ partner2Id: couples.partner2Id }).from(couples).where(eq(couples.id, inviter.coupleId));
      expect(couple!.partner2Id).toBeNull();
      // Neither their verification link nor the invitation's e-mailed link makes them partner 2.
      const verified = await call(verify, "POST", "/api/email-verification/verify", {
        body: { token: verificationToken, email: taker.email, password: "Mailbox#Owner7" },
      });
      expect(verified.json.error.code).toBe("INVALID_TOKEN");
      expect((await acceptWith(taker.token)).json.error.code).toBe("INVALID_INVITATION");
    });
  }

  it("leaves a couple whose partner 2 proved the address as it is, and the accepted invitation as it was", async () => {
    const inviter = await partnerA();
    const partner = await invited(inviter);
    const joined = await acceptWith(partner.token);
    expect(joined.status).toBe(200);
    await newPassword(inviter, "reset");

    const db = await getDb();
    const [couple] = await db.select({ partner2Id: couples.partner2Id }).from(couples).where(eq(couples.id, inviter.coupleId));
    expect(couple!.partner2Id).toBe(joined.json.user.id);
    const [invitation] = await db
      .select({ acceptedAt: invitations.acceptedAt, revokedAt: invitations.revokedAt })
      .from(invitations)
      .where(eq(invitations.coupleId, inviter.coupleId));
    expect(invitation).toMatchObject({ acceptedAt: expect.any(Date), revokedAt: null });
  });
});
