import { eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { transaction } from "@/db/transaction";
import { couples, notifications, users } from "@/db/schema";
import { markPartnerBComplete } from "@/lib/couples/service";
import { completeRegistration as completeRegistrationIn, joinWithAccount, partnerSetupView } from "@/lib/invitations/complete-registration";
import { invitationForPage } from "@/lib/invitations/queries";
import type { ImageStorage } from "@/lib/storage";
import { browserSession, createUser } from "../support/api";
import { apiSession, bearer } from "../support/flows";
import { JOIN_PASSWORD, MSG, partnerA, invited, load, acceptWith, complete, expire, counts } from "../support/invitations";

describe("POST /api/auth/complete-registration", () => {
  const details = { firstName: "Thaddeus", lastName: "Grant", dateOfBirth: "1990-02-03" };

  it("saves names, birth date and occupation of an account without a couple", async () => {
    const user = await createUser();
    const session = await browserSession(user.id);
    const res = await complete({ cookie: session.cookie, "x-csrf-token": session.csrf }, { ...details, occupation: " Chef " });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      success: true,
      data: {
        user: { id: user.id, email: user.email, ...details, occupation: "Chef", avatarUrl: null },
        couple: null,
        isExisting: false,
      },
    });
  });

  it("lets partner B finish set-up, reporting the couple and its status", async () => {
    const inviter = await partnerA();
    const { token, email } = await invited(inviter);
    await acceptWith(token);
    const session = await apiSession(email, JOIN_PASSWORD);
    const res = await complete(bearer(session.access_token), { ...details, occupation: "" });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({
      couple: { id: inviter.coupleId, status: "active", couple_name: "Marisol & Thaddeus" },
      isExisting: true,
    });
    expect(res.json.data.user.occupation).toBeNull();
  });

  it("marks partner B's part done by one rule: partner B with a complete profile (names, occupation, couple name)", async () => {
    const inviter = await partnerA();
    const { token } = await invited(inviter);
    const accepted = await acceptWith(token);
    const partnerB = accepted.json.user.id as string;
    const db = await getDb();
    const flags = async () =>
      (
        await db.select({ b: couples.partnerBVerified, verified: couples.isVerified }).from(couples).where(eq(couples.id, inviter.coupleId))
      )[0];
    // Whoever calls it: without an occupation partner B's part is not done, but they are partner B.
    expect(await transaction(db, (tx) => markPartnerBComplete(tx, partnerB))).toBe(true);
    expect(await flags()).toEqual({ b: false, verified: false });
    expect(await transaction(db, (tx) => markPartnerBComplete(tx, inviter.user.id))).toBe(false);
    await db.update(users).set({ occupation: "Chef" }).where(eq(users.id, partnerB));
    expect(await transaction(db, (tx) => markPartnerBComplete(tx, partnerB))).toBe(true);
    expect(await flags()).toEqual({ b: true, verified: true });
  });

  it("verifies the couple when partner B's set-up completes the profile (occupation given), not before", async () => {
    const inviter = await partnerA();
    const { token, email } = await invited(inviter);
    await acceptWith(token);
    const session = await apiSession(email, JOIN_PASSWORD);
    const db = await getDb();
    const flags = async () =>
      (
        await db.select({ b: couples.partnerBVerified, verified: couples.isVerified }).from(couples).where(eq(couples.id, inviter.coupleId))
      )[0];
    await complete(bearer(session.access_token), { ...details, occupation: "" });
    expect(await flags()).toEqual({ b: false, verified: false });
    const res = await complete(bearer(session.access_token), { ...details, occupation: "Chef" });
    expect(res.status).toBe(200);
    expect(await flags()).toEqual({ b: true, verified: true });
  });

  it("with an invitation token, attaches the signed-in account of the invited address as partner 2", async () => {
    const inviter = await partnerA();
    const { token, email } = await invited(inviter);
    // The invited partner registered on their own after the invitation was sent.
    const account = await createUser({ email });
    const session = await browserSession(account.id);
    const res = await complete({ cookie: session.cookie, "x-csrf-token": session.csrf }, { ...details, invitationToken: token });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ couple: { id: inviter.coupleId, partner2_id: account.id }, isExisting: false });
    const db = await getDb();
    const [user] = await db.select({ registrationType: users.registrationType }).from(users).where(eq(users.id, account.id));
    expect(user!.registrationType).toBe("partner_invitation");
    const [note] = await db.select().from(notifications).where(eq(notifications.userId, inviter.user.id));
    expect(note!.title).toBe("Thaddeus joined your couple!");
    expect((await load(token)).json.error.code).toBe("INVALID_INVITATION");
  });

  it("refuses a token sent to another address, or an account that already has a couple, and writes nothing", async () => {
    const inviter = await partnerA();
    const { token } = await invited(inviter);
    const stranger = await createUser();
    const strangerSession = await browserSession(stranger.id);
    const before = await counts(inviter.coupleId);
    const res = await complete(
      { cookie: strangerSession.cookie, "x-csrf-token": strangerSession.csrf },
      { ...details, invitationToken: token },
    );
    expect(res.status).toBe(403);
    expect(res.json.error).toEqual({ code: "FORBIDDEN", message: "This invitation was sent to a different email address." });
    const db = await getDb();
    const [unchanged] = await db.select({ firstName: users.firstName }).from(users).where(eq(users.id, stranger.id));
    expect(unchanged!.firstName).toBe("Ada");

    const other = await partnerA();
    const otherInvite = await invited(inviter, other.user.email.replace("@", "+x@"));
    await db.update(users).set({ email: otherInvite.email }).where(eq(users.id, other.user.id));
    const inCouple = await complete(other.headers, { ...details, invitationToken: otherInvite.token });
    expect(inCouple.status).toBe(409);
    expect(inCouple.json.error.code).toBe("COUPLE_EXISTS");
    expect((await counts(inviter.coupleId)).partner2Id).toBe(before.partner2Id);
  });

  it("refuses expired and unknown tokens with the spec's messages", async () => {
    const inviter = await partnerA();
    const { token, email } = await invited(inviter);
    const account = await createUser({ email });
    const session = await browserSession(account.id);
    const headers = { cookie: session.cookie, "x-csrf-token": session.csrf };
    expect((await complete(headers, { ...details, invitationToken: "nope" })).json.error).toEqual({
      code: "INVALID_INVITATION",
      message: MSG.invalid,
    });
    await expire(token);
    const expired = await complete(headers, { ...details, invitationToken: token });
    expect(expired.status).toBe(410);
    expect(expired.json.error).toEqual({ code: "INVITATION_EXPIRED", message: MSG.expired });
  });

  it("refuses bad input, a missing CSRF token and a signed-out caller", async () => {
    const user = await createUser();
    const session = await browserSession(user.id);
    const invalid = await complete(
      { cookie: session.cookie, "x-csrf-token": session.csrf },
      { firstName: "", lastName: "x".repeat(51), dateOfBirth: "" },
    );
    expect(invalid.status).toBe(400);
    expect(invalid.json.error).toMatchObject({
      code: "VALIDATION_ERROR",
      message: MSG.validation,
      fields: {
        firstName: "First name is required",
        lastName: "Last name must be no more than 50 characters",
        dateOfBirth: "Please enter your date of birth",
      },
    });
    const noCsrf = await complete({ cookie: session.cookie }, details);
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.json.error.code).toBe("CSRF_VALIDATION_FAILED");
    expect((await complete({}, details)).status).toBe(401);
    const db = await getDb();
    const [unchanged] = await db.select({ firstName: users.firstName }).from(users).where(eq(users.id, user.id));
    expect(unchanged!.firstName).toBe("Ada");
  });

  it("joins the signed-in account of the invited address as it is, with either link, and tells the join page who is signed in", async () => {
    const inviter = await partnerA();
    const { token, shareToken, email } = await invited(inviter);
    const account = await createUser({ email, firstName: "Theodore", lastName: "Grant-Lee", dateOfBirth: "1988-04-09" });
    const stranger = await createUser();
    const context = { clientAddress: "198.51.100.41" };
    for (const link of [token, shareToken]) {
      expect(await invitationForPage(link, { ...context, userId: account.id })).toMatchObject({ ok: true, signedInAsInvitee: true });
      expect(await invitationForPage(link, { ...context, userId: stranger.id })).toMatchObject({ ok: true, signedInAsInvitee: false });
      expect(await invitationForPage(link, { ...context, userId: null })).toMatchObject({ ok: true, signedInAsInvitee: false });
    }

    const db = await getDb();
    const joined = await joinWithAccount(db, account.id, shareToken, context);
    expect(joined).toMatchObject({
      user: { id: account.id, firstName: "Theodore", lastName: "Grant-Lee", dateOfBirth: "1988-04-09" },
      couple: { id: inviter.coupleId, partner2_id: account.id },
      isExisting: false,
    });
    const [note] = await db.select({ title: notifications.title }).from(notifications).where(eq(notifications.userId, inviter.user.id));
    expect(note!.title).toBe("Theodore joined your couple!");
    expect(await invitationForPage(token, { ...context, userId: account.id })).toMatchObject({ ok: false, code: "INVALID_INVITATION" });
  });

  describe("with a profile photo (partner setup)", () => {
    /** Storage in memory, so the test sees what was kept and what was removed. */
    function memoryStorage() {
      const objects = new Map<string, Buffer>();
      const storage: ImageStorage = {
        read: async () => null,
        put: async (key, buffer) => {
          objects.set(key, buffer);
          return { url: `/api/images/${key}` };
        },
        delete: async (key) => void objects.delete(key),
      };
      return { storage, objects };
    }

    it("stores the photo as the avatar", async () => {
      const user = await createUser();
      const { storage, objects } = memoryStorage();
      const avatar = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#884466" } })
        .jpeg({ quality: 90 })
        .toBuffer();
      const db = await getDb();
      const result = await completeRegistrationIn(db, user.id, details, { clientAddress: "198.51.100.5", avatar, storage });
      expect(objects.size).toBe(1);
      expect(result.user.avatarUrl).toBe(`/api/images/${[...objects.keys()][0]}`);
    });

    it("removes the photo it replaces once the new one is saved", async () => {
      const user = await createUser();
      const { storage, objects } = memoryStorage();
      const avatar = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#884466" } })
        .jpeg()
        .toBuffer();
      const db = await getDb();
      const first = await completeRegistrationIn(db, user.id, details, { clientAddress: "198.51.100.5", avatar, storage });
      const second = await completeRegistrationIn(db, user.id, details, { clientAddress: "198.51.100.5", avatar, storage });
      expect(second.user.avatarUrl).not.toBe(first.user.avatarUrl);
      expect([...objects.keys()].map((key) => `/api/images/${key}`)).toEqual([second.user.avatarUrl]);
    });

    it("refuses a file that is not an image, and a failed write leaves no stored file behind", async () => {
      const user = await createUser();
      const { storage, objects } = memoryStorage();
      const db = await getDb();
      await expect(
        completeRegistrationIn(db, user.id, details, {
          clientAddress: "198.51.100.5",
          avatar: new TextEncoder().encode("not an image"),
          storage,
        }),
      ).rejects.toMatchObject({
        code: "VALIDATION_ERROR",
        message: "Please select a valid image file (JPEG, PNG, or WebP)",
      });
      // The photo is stored before the transaction, which then refuses a link sent to another address.
      const { token } = await invited(await partnerA());
      const avatar = await sharp({ create: { width: 50, height: 50, channels: 3, background: "#884466" } })
        .png()
        .toBuffer();
      await expect(
        completeRegistrationIn(db, user.id, { ...details, invitationToken: token }, { clientAddress: "198.51.100.6", avatar, storage }),
      ).rejects.toMatchObject({
        code: "FORBIDDEN",
      });
      expect(objects.size).toBe(0);
      const [row] = await db.select({ avatarUrl: users.avatarUrl, firstName: users.firstName }).from(users).where(eq(users.id, user.id));
      expect(row).toEqual({ avatarUrl: null, firstName: "Ada" });
    });
  });
});

describe("partnerSetupView", () => {
  it("shows partner B their own details and what partner A set up; nothing for anyone else", async () => {
    const inviter = await partnerA("Marisol & Thaddeus");
    const { token } = await invited(inviter);
    const accepted = await acceptWith(token);
    const db = await getDb();
    await db
      .update(couples)
      .set({ interests: ["hiking", "wine"], photos: ["/uploads/a.jpg"], profileImageUrl: "/uploads/main.jpg" })
      .where(eq(couples.id, inviter.coupleId));
    expect(await partnerSetupView(db, accepted.json.user.id)).toEqual({
      coupleName: "Marisol & Thaddeus",
      partnerFirstName: "Marisol",
      location: null,
      interestCount: 2,
      coupleTypeCount: 0,
      photoCount: 2,
      me: { firstName: "Thaddeus", lastName: "Grant", dateOfBirth: "1991-07-08", occupation: null, avatarUrl: null },
    });
    expect(await partnerSetupView(db, inviter.user.id)).toBeNull();
  });
});
