import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { moderationLog, users } from "@/db/schema";
import { ADMINS_ONLY } from "@/lib/membership/roles";
import { OWN_ROLE_MESSAGE, setRole } from "@/lib/safety/moderators";
import { waitsOn, whileHeld } from "../support/lock-race";
import { messagingCouple } from "../support/messages";
import { moderation, moderatorCouple, team } from "../support/moderation";
import { onPostgres } from "../support/test-database";

const roleOf = async (userId: string) => {
  const db = await getDb();
  const [row] = await db.select({ role: users.role }).from(users).where(eq(users.id, userId));
  return row!.role;
};

const logOf = async (userId: string) => {
  const db = await getDb();
  return db
    .select({ action: moderationLog.action, moderatorUserId: moderationLog.moderatorUserId, note: moderationLog.note })
    .from(moderationLog)
    .where(and(eq(moderationLog.targetType, "user"), eq(moderationLog.targetId, userId)))
    .orderBy(moderationLog.seq);
};

const emailOf = async (userId: string) => {
  const db = await getDb();
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row!.email;
};

describe("an admin runs the team from /moderation/team", () => {
  it("lists the team, grants by e-mail and revokes, each logged with the admin; the granted moderator reaches the queue", async () => {
    const { headers: admin, userId: adminId } = await moderatorCouple("admin");
    const future = await messagingCouple();
    const email = await emailOf(future.b.userId);

    const granted = await team.grant({ email: ` ${email.toUpperCase()} `, role: "moderator" }, admin);
    expect(granted.status).toBe(201);
    expect(granted.json.data).toEqual({ userId: future.b.userId, role: "moderator" });
    expect(await roleOf(future.b.userId)).toBe("moderator");
    expect((await moderation.queue(future.b.headers)).status).toBe(200);
    const listed = await team.list(admin);
    expect(listed.status).toBe(200);
    expect(listed.json.data).toEqual(expect.arrayContaining([expect.objectContaining({ userId: future.b.userId, role: "moderator" })]));
    // Nothing private about the team leaves the server: names and roles only.
    expect(Object.keys(listed.json.data[0]).sort()).toEqual(["name", "role", "userId"]);
    // By first name: a last name is private, to the team too.
    expect(listed.json.data.find((member: { userId: string }) => member.userId === future.b.userId).name).toBe(future.b.firstName);

    const revoked = await team.revoke(future.b.userId, admin);
    expect(revoked.status).toBe(200);
    expect(revoked.json.data).toEqual({ userId: future.b.userId, role: "member" });
    expect((await moderation.queue(future.b.headers)).status).toBe(403);
    expect(await logOf(future.b.userId)).toEqual([
      { action: "role_granted", moderatorUserId: adminId, note: "moderator" },
      { action: "role_revoked", moderatorUserId: adminId, note: "member" },
    ]);
  });

  it("is for admins only (403 for moderators and members), checks CSRF and input, and never changes the admin's own role", async () => {
    const { headers: admin, userId: adminId, couple } = await moderatorCouple("admin");
    const { headers: moderator, userId: moderatorId } = await moderatorCouple("moderator");
    const member = await messagingCouple();
    const email = await emailOf(member.a.userId);
    for (const headers of [moderator, member.a.headers]) {
      const refused = await team.grant({ email, role: "admin" }, headers);
      expect(refused.status).toBe(403);
      expect(refused.json).toEqual({ error: { code: "FORBIDDEN", message: ADMINS_ONLY } });
      expect((await team.list(headers)).status).toBe(403);
      expect((await team.revoke(moderatorId, headers)).status).toBe(403);
    }
    expect(await roleOf(member.a.userId)).toBe("member");
    expect((await team.grant({ email, role: "moderator" }, { cookie: admin.cookie! })).status).toBe(403);
    expect((await team.grant({ email, role: "owner" }, admin)).status).toBe(400);
    expect((await team.grant({ email: "not-an-address", role: "moderator" }, admin)).status).toBe(400);
    expect((await team.grant({ email: "nobody-here@example.com", role: "moderator" }, admin)).status).toBe(404);
    expect((await team.revoke("not-a-uuid", admin)).status).toBe(400);
    const own = await team.revoke(adminId, admin);
    expect(own.status).toBe(403);
    expect(own.json.error.message).toBe(OWN_ROLE_MESSAGE);
    expect((await team.grant({ email: await emailOf(adminId), role: "moderator" }, admin)).status).toBe(403);
    expect(await roleOf(adminId)).toBe("admin");
    // The partner of the admin is someone else: an admin may grant them a role.
    expect((await team.grant({ email: await emailOf(couple.b.userId), role: "admin" }, admin)).status).toBe(201);
  });

  it.skipIf(!onPostgres())(
    "two admins revoking each other at one instant: the second is no longer an admin (403), one admin stays",
    async () => {
      const first = await moderatorCouple("admin");
      const second = await moderatorCouple("admin");
      // Both revokes pass the admin check, then wait on the two rows, held on a second connection.
      const revokes = await whileHeld(
        (tx) => tx`select id from users where id in (${first.userId}, ${second.userId}) for update`,
        [() => team.revoke(second.userId, first.headers), () => team.revoke(first.userId, second.headers)],
      );
      expect(revokes.map((res) => res.status).sort()).toEqual([200, 403]);
      expect(revokes.find((res) => res.status === 403)!.json.error.message).toBe(ADMINS_ONLY);
      expect([await roleOf(first.userId), await roleOf(second.userId)].sort()).toEqual(["admin", "member"]);
    },
  );

  it.skipIf(!onPostgres())("a role change never waits on a row being written that refers to the admin (a reply, a notice)", async () => {
    const admin = await moderatorCouple("admin");
    const future = await messagingCouple();
    const email = await emailOf(future.b.userId);
    // What an insert referring to the admin holds until it commits (a notice to them, their reply).
    const { waited, answer } = await waitsOn(
      (tx) => tx`select id from users where id = ${admin.userId} for key share`,
      () => team.grant({ email, role: "moderator" }, admin.headers),
    );
    expect(answer.status).toBe(201);
    expect(waited, "the role change waited on the admin's row: with a write that next waits on it, a deadlock").toBe(false);
  });

  it("the command line (admin:grant, moderator:grant) uses the same function: logged with no admin", async () => {
    const member = await messagingCouple();
    const db = await getDb();
    await setRole(db, null, { email: await emailOf(member.a.userId) }, "admin");
    expect(await roleOf(member.a.userId)).toBe("admin");
    // Granting the role it already has writes nothing more.
    await setRole(db, null, { email: await emailOf(member.a.userId) }, "admin");
    expect(await logOf(member.a.userId)).toEqual([{ action: "role_granted", moderatorUserId: null, note: "admin" }]);
  });
});
