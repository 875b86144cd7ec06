import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { GET as directoryRoute } from "@/app/api/directory/route";
import { GET as profileRoute } from "@/app/api/couples/[id]/full-profile/route";
import { POST as coupleSettingsRoute } from "@/app/api/settings/couple/route";
import { POST as profileSettingsRoute } from "@/app/api/settings/profile/route";
import { getDb } from "@/db/client";
import { couples, moderationLog, notifications, photoVerifications } from "@/db/schema";
import { deleteAccount } from "@/lib/account/deletion";
import { exportAccount } from "@/lib/account/export";
import { completeRegistration } from "@/lib/invitations/complete-registration";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { imageStorage } from "@/lib/storage";
import { submitSelfie } from "@/lib/verification/service";
import { call, PASSWORD } from "../support/api";
import { forum, postBody, type Headers } from "../support/forum";
import { connected, messagingCouple, talk } from "../support/messages";
import { coupleRecordOf, moderation, moderatorCouple } from "../support/moderation";
import { formOf, jpeg, post } from "../support/onboarding";
import { queryPlan } from "../support/query-plan";
import { nextWhileWaiting, whileHeld } from "../support/lock-race";
import { onPostgres } from "../support/test-database";
import { sendPendingSelfie, verification } from "../support/verification";

const rowOf = async (userId: string) => {
  const db = await getDb();
  const [row] = await db.select().from(photoVerifications).where(eq(photoVerifications.userId, userId));
  return row!;
};
const countOf = async (coupleId: string) => {
  const db = await getDb();
  const [row] = await db.select({ n: couples.photoVerifiedPartners }).from(couples).where(eq(couples.id, coupleId));
  return row!.n;
};
const storedFile = async (key: string) => (await imageStorage()).read(key);
const profileOf = (coupleId: string, h: Headers) =>
  call(profileRoute, "GET", `/api/couples/${encodeURIComponent(coupleId)}/full-profile`, { headers: h, params: { id: coupleId } });

describe("a partner's selfie", () => {
  it("is asked in a pose picked and kept by the server, and waits privately for a moderator", async () => {
    const couple = await messagingCouple();
    const first = await verification.state(couple.a.headers);
    expect(first.status).toBe(200);
    expect(first.json.data).toMatchObject({ status: "not_started", submittedAt: null, decidedAt: null, refusal: null });
    expect((await rowOf(couple.a.userId)).pose).toBe(first.json.data.pose.id);
    // Asking again draws no other pose: nobody can ask until one matches an old photo.
    for (let ask = 0; ask < 8; ask++) expect((await verification.state(couple.a.headers)).json.data.pose.id).toBe(first.json.data.pose.id);

    const { pose, sent } = await sendPendingSelfie(couple.a.headers);
    expect(sent.status).toBe(201);
    expect(sent.json.data).toMatchObject({ status: "pending", pose: { id: pose } });
    const row = await rowOf(couple.a.userId);
    expect(row.selfieKey).toMatch(/^verification-selfie\/[0-9a-f]{32}\.jpg$/);
    expect(await storedFile(row.selfieKey!)).not.toBeNull();
    // Asking again while it waits keeps the pose it was taken in, and a second selfie is refused.
    expect((await verification.state(couple.a.headers)).json.data).toMatchObject({ status: "pending", pose: { id: pose } });
    const again = await verification.sendSelfie(pose, couple.a.headers);
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe("VERIFICATION_STATE");
  });

  it("is refused in another pose than the one last asked, and for a file that is not an image", async () => {
    const couple = await messagingCouple();
    const asked = (await verification.state(couple.a.headers)).json.data.pose.id;
    const other = ["three_fingers", "left_ear"].find((pose) => pose !== asked)!;
    expect((await verification.sendSelfie(other, couple.a.headers)).status).toBe(409);
    expect((await verification.sendSelfie("cartwheel", couple.a.headers)).status).toBe(400);
    expect((await verification.sendSelfie(asked, couple.a.headers, Buffer.from("not an image"))).status).toBe(400);
    expect((await rowOf(couple.a.userId)).status).toBe("not_started");
  });

  it("leaves no file behind when its row cannot be written (a face nobody could ever reach or remove)", async () => {
    const couple = await messagingCouple();
    const pose = (await verification.state(couple.a.headers)).json.data.pose.id;
    const storage = await imageStorage();
    const put = vi.spyOn(storage, "put");
    const db = await getDb();
    // The database goes away between the upload's storing and its row's update.
    const failing = new Proxy(db, {
      get: (target, key, receiver) =>
        key === "update"
          ? () => {
              throw new Error("connection lost");
            }
          : Reflect.get(target, key, receiver),
    });
    try {
      await expect(submitSelfie(failing, { userId: couple.a.userId } as ActingCouple, pose, await jpeg(600, 800))).rejects.toThrow(
        "connection lost",
      );
      const [key] = put.mock.calls.map(([stored]) => stored);
      expect(key).toMatch(/^verification-selfie\//);
      expect(await storedFile(key!)).toBeNull();
    } finally {
      put.mockRestore();
    }
    expect((await rowOf(couple.a.userId)).status).toBe("not_started");
  });

  it("is never served to a member, its own partner included, nor at the public image URL, nor kept by a moderator's browser", async () => {
    const couple = await messagingCouple();
    const stranger = await messagingCouple();
    await sendPendingSelfie(couple.a.headers);
    const key = (await rowOf(couple.a.userId)).selfieKey!;
    expect((await verification.selfie(couple.a.userId, couple.a.headers)).status).toBe(403);
    expect((await verification.selfie(couple.a.userId, couple.b.headers)).status).toBe(403);
    expect((await verification.selfie(couple.a.userId, stranger.a.headers)).status).toBe(403);
    expect((await verification.queue(stranger.a.headers)).status).toBe(403);
    const { GET: publicImages } = await import("@/app/api/images/[...key]/route");
    const open = await call(publicImages, "GET", `/api/images/${key}`, { params: { key: key.split("/") } as never });
    expect(open.status).toBe(404);
    const { headers: moderator } = await moderatorCouple();
    const served = await verification.selfie(couple.a.userId, moderator);
    // A face shown to check who someone is: never kept, not even by the moderator's browser.
    expect(served).toMatchObject({ status: 200, type: "image/jpeg", cache: "private, no-store" });
  });
});

describe("a moderator's decision", () => {
  it("approves: the partner is verified, the selfie's file and key are gone, the log and the notice say so", async () => {
    const couple = await messagingCouple();
    const { headers: moderator, userId: moderatorId } = await moderatorCouple();
    const { pose } = await sendPendingSelfie(couple.a.headers);
    const key = (await rowOf(couple.a.userId)).selfieKey!;

    const queue = await verification.queue(moderator);
    const item = queue.json.data.find((entry: { id: string }) => entry.id === couple.a.userId);
    expect(item).toMatchObject({
      couple: { id: couple.coupleId, coupleName: couple.name },
      pose: { id: pose },
      selfieUrl: `/api/moderation/verifications/${couple.a.userId}/selfie`,
    });

    const decided = await verification.decide(couple.a.userId, { decision: "approve" }, moderator);
    expect(decided.status).toBe(200);
    expect(decided.json.data.status).toBe("verified");
    const row = await rowOf(couple.a.userId);
    expect(row).toMatchObject({ status: "verified", selfieKey: null, refusalReason: null });
    expect(row.decidedAt).not.toBeNull();
    expect(await storedFile(key)).toBeNull();
    expect((await verification.selfie(couple.a.userId, moderator)).status).toBe(404);
    expect((await verification.queue(moderator)).json.data.some((entry: { id: string }) => entry.id === couple.a.userId)).toBe(false);
    expect((await verification.decide(couple.a.userId, { decision: "refuse", reason: "face" }, moderator)).status).toBe(404);

    const db = await getDb();
    const log = await db.select().from(moderationLog).where(eq(moderationLog.coupleId, couple.coupleId));
    expect(log).toEqual([
      expect.objectContaining({ action: "photo_approved", moderatorUserId: moderatorId, targetType: "person", targetId: couple.a.userId }),
    ]);
    const [notice] = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, couple.a.userId), eq(notifications.type, "photo_verification")));
    expect(notice).toMatchObject({ title: "Your photo is verified" });
    expect((await verification.state(couple.a.headers)).json.data.status).toBe("verified");
  });

  it("refuses with a reason from the list the partner sees, and the partner may try again", async () => {
    const couple = await messagingCouple();
    const { headers: moderator } = await moderatorCouple();
    await sendPendingSelfie(couple.a.headers);
    const key = (await rowOf(couple.a.userId)).selfieKey!;
    expect((await verification.decide(couple.a.userId, { decision: "refuse" }, moderator)).status).toBe(400);
    expect((await verification.decide(couple.a.userId, { decision: "refuse", reason: "rude" }, moderator)).status).toBe(400);
    expect((await verification.decide(couple.a.userId, { decision: "refuse", reason: "pose" }, moderator)).status).toBe(200);
    expect(await storedFile(key)).toBeNull();
    const state = (await verification.state(couple.a.headers)).json.data;
    expect(state).toMatchObject({ status: "refused", refusal: { reason: "pose", label: "The pose is not the one we asked for" } });
    const db = await getDb();
    const [notice] = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, couple.a.userId), eq(notifications.type, "photo_verification")));
    expect(notice!.message).toContain("The pose is not the one we asked for");
    const [logged] = await db.select().from(moderationLog).where(eq(moderationLog.coupleId, couple.coupleId));
    expect(logged).toMatchObject({ action: "photo_refused", reason: "pose" });
    // Try again: a new selfie in the pose now asked.
    expect((await verification.sendSelfie(state.pose.id, couple.a.headers)).status).toBe(201);
    expect(await countOf(couple.coupleId)).toBe(0);
  });

  it("is for moderators only, CSRF-checked, and never on their own couple", async () => {
    const { couple: own, headers: moderator } = await moderatorCouple();
    await sendPendingSelfie(own.b.headers);
    // Nor in their queue, nor their partner's selfie: another moderator's to see.
    const queued = async (h: typeof moderator) => (await verification.queue(h)).json.data.map((item: { id: string }) => item.id);
    expect(await queued(moderator)).not.toContain(own.b.userId);
    expect((await verification.selfie(own.b.userId, moderator)).status).toBe(404);
    const refused = await verification.decide(own.b.userId, { decision: "approve" }, moderator);
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toBe("You cannot act on your own couple. Another moderator will.");
    const member = await messagingCouple();
    expect((await verification.decide(own.b.userId, { decision: "approve" }, member.a.headers)).status).toBe(403);
    const { headers: other } = await moderatorCouple();
    expect(await queued(other)).toContain(own.b.userId);
    expect((await verification.selfie(own.b.userId, other)).status).toBe(200);
    expect((await verification.decide(own.b.userId, { decision: "approve" }, { cookie: other.cookie! })).status).toBe(403);
    expect((await verification.decide(own.b.userId, { decision: "approve" }, other)).status).toBe(200);
  });
});

describe("a couple the moderator's own couple reported", () => {
  it("is not in their queue, nor its selfie, as deciding it is refused; another moderator's queue has it", async () => {
    const { couple: own, headers: moderator } = await moderatorCouple();
    const reported = await messagingCouple();
    await sendPendingSelfie(reported.b.headers);
    const post = (await forum.create(postBody(), reported.a.headers)).json.data;
    // The moderator's partner reports the couple's post: the couple is another moderator's to act on.
    expect((await moderation.report({ targetType: "post", targetId: post.id, reason: "spam" }, own.b.headers)).status).toBe(201);
    const queued = async (h: Headers) => (await verification.queue(h)).json.data.map((item: { id: string }) => item.id);
    expect(await queued(moderator)).not.toContain(reported.b.userId);
    expect((await verification.selfie(reported.b.userId, moderator)).status).toBe(404);
    expect((await verification.decide(reported.b.userId, { decision: "approve" }, moderator)).status).toBe(403);
    // Nor does the couple's page offer it: the state alone, as on their own couple.
    const pendingOn = async (h: Headers) =>
      ((await coupleRecordOf(reported.coupleId, h)).json.data.verifications as { userId: string; status: string; pending: unknown }[]).find(
        (partner) => partner.userId === reported.b.userId,
      );
    expect(await pendingOn(moderator)).toMatchObject({ status: "pending", pending: null });
    const { headers: other } = await moderatorCouple();
    expect(await queued(other)).toContain(reported.b.userId);
    expect((await verification.selfie(reported.b.userId, other)).status).toBe(200);
    expect((await pendingOn(other))!.pending).not.toBeNull();
  });
});

describe("the badge", () => {
  it("counts the couple's verified partners, survives a new main photo, and is asked again when a partner's own photo changes", async () => {
    const couple = await messagingCouple();
    const viewer = await messagingCouple();
    const { headers: moderator } = await moderatorCouple();
    for (const partner of [couple.a, couple.b]) {
      await sendPendingSelfie(partner.headers);
      await verification.decide(partner.userId, { decision: "approve" }, moderator);
    }
    expect(await countOf(couple.coupleId)).toBe(2);
    expect((await profileOf(couple.coupleId, viewer.a.headers)).json.data.photoBadge).toBe("Both photo verified");

    const fields = {
      coupleName: couple.name,
      bio: "Still travelling, still cooking, fewer arguments about maps.",
      "coupleTypes[]": ["mindful_adventurers"],
      profileImage: await jpeg(500, 500),
    };
    const main = await post(coupleSettingsRoute, "/api/settings/couple", formOf(fields), couple.a.headers);
    expect(main.status).toBe(200);
    expect(await countOf(couple.coupleId)).toBe(2);

    const own = await post(
      profileSettingsRoute,
      "/api/settings/profile",
      formOf({ occupation: "Engineer", avatar: await jpeg(500, 500) }),
      couple.b.headers,
    );
    expect(own.status).toBe(200);
    expect((await rowOf(couple.b.userId)).status).toBe("not_started");
    expect((await verification.state(couple.b.headers)).json.data).toMatchObject({ status: "not_started", decidedAt: null });
    expect(await countOf(couple.coupleId)).toBe(1);
    expect((await profileOf(couple.coupleId, viewer.a.headers)).json.data.photoBadge).toBe("Photo verified");
  });

  it("is asked again when partner B's set-up brings a new photo of their own", async () => {
    const couple = await messagingCouple();
    const { headers: moderator } = await moderatorCouple();
    await sendPendingSelfie(couple.b.headers);
    await verification.decide(couple.b.userId, { decision: "approve" }, moderator);
    expect(await countOf(couple.coupleId)).toBe(1);
    const details = { firstName: couple.b.firstName, lastName: "Grant", dateOfBirth: "1990-02-03" };
    await completeRegistration(await getDb(), couple.b.userId, details, { clientAddress: "198.51.100.5", avatar: await jpeg(500, 500) });
    expect((await rowOf(couple.b.userId)).status).toBe("not_started");
    expect(await countOf(couple.coupleId)).toBe(0);
  });

  it("filters the directory by it (in the URL, from its partial index) and shows it on the cards", async () => {
    const verified = await messagingCouple();
    const plain = await messagingCouple();
    const viewer = await messagingCouple();
    const { headers: moderator } = await moderatorCouple();
    await sendPendingSelfie(verified.b.headers);
    await verification.decide(verified.b.userId, { decision: "approve" }, moderator);

    const all = await call(directoryRoute, "GET", "/api/directory?sort=newest&limit=50", { headers: viewer.a.headers });
    const card = all.json.data.find((entry: { coupleId: string }) => entry.coupleId === verified.coupleId);
    expect(card.photoBadge).toBe("Photo verified");
    expect(all.json.data.find((entry: { coupleId: string }) => entry.coupleId === plain.coupleId).photoBadge).toBeNull();
    const filtered = await call(directoryRoute, "GET", "/api/directory?sort=newest&photoVerified=1&limit=50", {
      headers: viewer.a.headers,
    });
    expect(filtered.status).toBe(200);
    const ids = filtered.json.data.map((entry: { coupleId: string }) => entry.coupleId);
    expect(ids).toContain(verified.coupleId);
    expect(ids).not.toContain(plain.coupleId);
    expect(filtered.json.data.every((entry: { photoBadge: string | null }) => entry.photoBadge !== null)).toBe(true);
    expect((await call(directoryRoute, "GET", "/api/directory?photoVerified=yes", { headers: viewer.a.headers })).status).toBe(400);

    const plan = await queryPlan(sql`select id from couples
      where status = 'active' and is_visible and photo_verified_partners > 0
      order by created_at desc, id desc limit 25`);
    expect(plan).toContain("couples_discoverable_photo_verified_idx");
  });
});

describe.skipIf(!onPostgres())("the badge, with both partners decided at one instant", () => {
  it("counts both: the decision waiting on the other's lock counts after it commits", async () => {
    const couple = await messagingCouple();
    const { headers: moderator } = await moderatorCouple();
    await sendPendingSelfie(couple.a.headers);
    await sendPendingSelfie(couple.b.headers);
    // A's approval on a second connection, uncommitted: it holds the couple's row while B's is decided.
    const [decided] = await whileHeld(
      (tx) =>
        tx`update photo_verifications set status = 'verified', selfie_key = null, decided_at = now() where user_id = ${couple.a.userId}`,
      [() => verification.decide(couple.b.userId, { decision: "approve" }, moderator)],
    );
    expect(decided!.status).toBe(200);
    expect(await countOf(couple.coupleId)).toBe(2);
  });
});

describe.skipIf(!onPostgres())("a moderator's decision beside the partner's account deletion at one instant", () => {
  it("waits for the deletion holding the partner's row before it takes the selfie's row (no deadlock)", async () => {
    const couple = await messagingCouple();
    const { headers: moderator } = await moderatorCouple();
    await sendPendingSelfie(couple.a.headers);
    const { waited, answer } = await nextWhileWaiting(
      // What a deletion takes first (lib/account/deletion.ts)...
      (tx) => tx`select id from users where id = ${couple.a.userId} for update`,
      () => verification.decide(couple.a.userId, { decision: "approve" }, moderator),
      // ...and what deleting the person's row takes with it (the row cascades). NOWAIT: it fails if the decision holds it.
      (tx) => tx`select user_id from photo_verifications where user_id = ${couple.a.userId} for update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
  });
});

describe("the conversation's header", () => {
  it("shows the other couple's photo badge, none for a couple not verified", async () => {
    const { one, two, conversationId } = await connected();
    const { headers: moderator } = await moderatorCouple();
    await sendPendingSelfie(one.b.headers);
    await verification.decide(one.b.userId, { decision: "approve" }, moderator);
    const seenByTwo = (await talk.detail(conversationId, two.a.headers)).json.data;
    const badgeOf = (coupleId: string) =>
      seenByTwo.couples.find((couple: { id: string; photoBadge: string | null }) => couple.id === coupleId).photoBadge;
    expect(badgeOf(one.coupleId)).toBe("Photo verified");
    expect(badgeOf(two.coupleId)).toBeNull();
  });
});

describe("the person's data", () => {
  it("lists the decision and its date in the export, never the selfie", async () => {
    const couple = await messagingCouple();
    const { headers: moderator } = await moderatorCouple();
    await sendPendingSelfie(couple.a.headers);
    await verification.decide(couple.a.userId, { decision: "refuse", reason: "quality" }, moderator);
    const db = await getDb();
    const exported = await exportAccount(db, couple.a.userId);
    expect(exported.photoVerification).toEqual({
      status: "refused",
      submittedAt: expect.any(Date),
      decidedAt: expect.any(Date),
      refusalReason: "The photo is too dark or blurred",
    });
    expect(JSON.stringify(exported)).not.toContain("verification-selfie");
  });

  it("deletes a pending selfie with the account, its file too", async () => {
    const couple = await messagingCouple();
    await sendPendingSelfie(couple.b.headers);
    const key = (await rowOf(couple.b.userId)).selfieKey!;
    const db = await getDb();
    await deleteAccount(db, couple.b.userId, PASSWORD);
    expect(await storedFile(key)).toBeNull();
    const rows = await db.select().from(photoVerifications).where(eq(photoVerifications.userId, couple.b.userId));
    expect(rows).toEqual([]);
  });
});
