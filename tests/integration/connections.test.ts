import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { connectionRequests, liveEvents, notifications, rateLimitHits } from "@/db/schema";
import { REQUESTS_PER_DAY } from "@/lib/connections/rules";
import { LIMITS, TOO_MANY_REQUESTS } from "@/lib/rate-limit";
import { GET as getSettings, PUT as putSettings } from "@/app/api/settings/connections/route";
import { call, FORGED_ADDRESS_HEADERS, type CallOptions } from "../support/api";
import type { Headers } from "../support/forum";
import { block, connections, messagingCouple, requestRow, talk } from "../support/messages";
import { liftSanction, sanctionCouple } from "@/lib/safety/sanctions";
import { SAFETY_REACTIONS } from "@/lib/registry/safety";
import { nextWhileWaiting } from "../support/lock-race";
import { onPostgres } from "../support/test-database";
import { queryPlan, wholeScans } from "../support/query-plan";

const DAY = 24 * 60 * 60 * 1000;
const settings = {
  get: (headers: CallOptions["headers"]) => call(getSettings, "GET", "/api/settings/connections", { headers }),
  put: (body: unknown, headers: CallOptions["headers"]) => call(putSettings, "PUT", "/api/settings/connections", { body, headers }),
};

/** Moves a request back in time, as if it had been sent `days` ago. */
async function age(requestId: string, days: number) {
  const db = await getDb();
  const sent = new Date(Date.now() - days * DAY);
  await db
    .update(connectionRequests)
    .set({ createdAt: sent, expiresAt: new Date(sent.getTime() + 30 * DAY) })
    .where(eq(connectionRequests.id, requestId));
}

async function notificationsOf(userIds: string[], type: "connection_request" | "connection_accepted") {
  const db = await getDb();
  return db
    .select({ userId: notifications.userId, message: notifications.message, conversationId: notifications.conversationId })
    .from(notifications)
    .where(and(inArray(notifications.userId, userIds), eq(notifications.type, type)));
}

/** The couple's hellos counted today against its daily limit. */
async function helloesCounted(coupleId: string): Promise<number> {
  const db = await getDb();
  const rows = await db
    .select({ id: rateLimitHits.id })
    .from(rateLimitHits)
    .where(and(eq(rateLimitHits.bucket, REQUESTS_PER_DAY.bucket), eq(rateLimitHits.subject, coupleId)));
  return rows.length;
}

describe("POST /api/connections", () => {
  it("sends a request both receiving partners see and are notified of, with live rows for all four", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple();
    const res = await connections.send({ coupleId: them.coupleId, note: "  We loved your post\r\nabout Sintra!  " }, us.a.headers);
    expect(res.status).toBe(201);
    expect(res.json.data).toEqual({
      id: expect.any(String),
      status: "pending",
      couple: { id: them.coupleId, coupleName: them.name, profileImageUrl: null },
      note: "We loved your post\nabout Sintra!",
      createdAt: expect.stringMatching(/^\d{4}-/),
    });
    for (const partner of [them.a, them.b]) {
      const incoming = await connections.list("incoming", partner.headers);
      expect(incoming.json.data).toEqual([
        {
          id: res.json.data.id,
          status: "pending",
          couple: { id: us.coupleId, coupleName: us.name, profileImageUrl: null, distanceBand: null, interestsInCommon: [] },
          note: "We loved your post\nabout Sintra!",
          createdAt: res.json.data.createdAt,
          approvals: [
            { firstName: them.a.firstName, accepted: false },
            { firstName: them.b.firstName, accepted: false },
          ],
        },
      ]);
    }
    const outgoing = await connections.list("outgoing", us.b.headers);
    expect(outgoing.json.data.map((r: { id: string; status: string; approvals: unknown[] }) => [r.id, r.status, r.approvals])).toEqual([
      [res.json.data.id, "pending", []],
    ]);
    expect((await connections.list("incoming", us.a.headers)).json.data).toEqual([]);
    const notes = await notificationsOf([them.a.userId, them.b.userId, us.a.userId, us.b.userId], "connection_request");
    expect(notes.map((n) => n.userId).sort()).toEqual([them.a.userId, them.b.userId].sort());
    expect(notes[0]!.message).toBe(`${us.name} said hello`);
    const db = await getDb();
    const live = await db
      .select({ userId: liveEvents.userId, kind: liveEvents.kind })
      .from(liveEvents)
      .where(and(inArray(liveEvents.userId, [us.a.userId, us.b.userId, them.a.userId, them.b.userId]), eq(liveEvents.kind, "connection")));
    expect(live).toHaveLength(4);
  });

  it("refuses bad input with 400 and the field's message", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple();
    const cases: [unknown, string][] = [
      [{ coupleId: them.coupleId }, "Please write a short note"],
      [{ coupleId: them.coupleId, note: "   " }, "Please write a short note"],
      [{ coupleId: them.coupleId, note: "x".repeat(501) }, "Your note must be no more than 500 characters"],
      [{ coupleId: them.coupleId, note: "hi\u0000there" }, "Your note contains characters that are not allowed"],
      [{ coupleId: them.coupleId, note: "hi\ud800" }, "Your note contains characters that are not allowed"],
      [{ coupleId: "not-a-uuid", note: "hi" }, "coupleId must be a couple's id"],
      [{ coupleId: 42, note: ["hi"] }, "coupleId must be a couple's id"],
    ];
    for (const [body, message] of cases) {
      const res = await connections.send(body, us.a.headers);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error).toMatchObject({ code: "VALIDATION_ERROR", message });
    }
    expect((await connections.send({ coupleId: them.coupleId, note: "x".repeat(500) }, us.a.headers)).status).toBe(201);
  });

  it("answers 404 for oneself, a missing, a hidden or a blocking couple, and 403 BLOCKED for one the caller blocked", async () => {
    const us = await messagingCouple();
    const hidden = await messagingCouple({ visible: false });
    const blocksUs = await messagingCouple();
    const blockedByUs = await messagingCouple();
    expect((await block(us.coupleId, blocksUs.a.headers)).status).toBe(200);
    expect((await block(blockedByUs.coupleId, us.b.headers)).status).toBe(200);
    for (const coupleId of [us.coupleId, randomUUID(), hidden.coupleId, blocksUs.coupleId]) {
      const res = await connections.send({ coupleId, note: "Hello" }, us.a.headers);
      expect(res.status).toBe(404);
      expect(res.json.error).toEqual({ code: "NOT_FOUND", message: "This couple is not available." });
    }
    const res = await connections.send({ coupleId: blockedByUs.coupleId, note: "Hello" }, us.a.headers);
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("BLOCKED");
  });

  it("keeps one open request between two couples, whichever sent it", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple();
    expect((await connections.send({ coupleId: them.coupleId, note: "Hello" }, us.a.headers)).status).toBe(201);
    for (const [coupleId, headers] of [
      [them.coupleId, us.b.headers],
      [us.coupleId, them.a.headers],
    ] as const) {
      const res = await connections.send({ coupleId, note: "Hello again" }, headers);
      expect(res.status).toBe(409);
      expect(res.json.error.code).toBe("ALREADY_REQUESTED");
    }
  });

  it("needs a session", async () => {
    const them = await messagingCouple();
    expect((await connections.send({ coupleId: them.coupleId, note: "Hello" }, {})).status).toBe(401);
    expect((await connections.list("incoming", {})).status).toBe(401);
    expect((await connections.accept(randomUUID(), {})).status).toBe(401);
  });
});

describe("daily limits", () => {
  it("counts refused attempts: the eleventh attempt of the day is 429 with Retry-After", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple();
    for (let i = 0; i < 10; i++) expect((await connections.send({ coupleId: randomUUID(), note: "Hello" }, us.a.headers)).status).toBe(404);
    const res = await connections.send({ coupleId: them.coupleId, note: "Hello" }, us.b.headers);
    expect(res.status).toBe(429);
    expect(res.json.error.code).toBe("RATE_LIMITED");
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("answers the same hello sent again, one after the other or at once, as the first, and counts it once", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple();
    const others = await messagingCouple();
    const first = await connections.send({ coupleId: them.coupleId, note: "Hello" }, us.a.headers);
    const again = await connections.send({ coupleId: them.coupleId, note: "Hello" }, us.b.headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.json).toEqual(first.json);
    expect(await helloesCounted(us.coupleId)).toBe(1);
    const together = await Promise.all([1, 2].map(() => connections.send({ coupleId: others.coupleId, note: "Hi" }, us.a.headers)));
    expect(together.map((res) => res.status)).toEqual([201, 201]);
    expect(together[1]!.json).toEqual(together[0]!.json);
    expect(await helloesCounted(us.coupleId)).toBe(2);
    const db = await getDb();
    const sent = await db
      .select({ id: connectionRequests.id })
      .from(connectionRequests)
      .where(eq(connectionRequests.fromCoupleId, us.coupleId));
    expect(sent).toHaveLength(2);
  });

  it("answers the same hello sent again after a silent decline as the first: the sender cannot tell a decline from silence", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple();
    const first = await connections.send({ coupleId: them.coupleId, note: "Hello" }, us.a.headers);
    expect((await connections.decline(first.json.data.id, them.a.headers)).status).toBe(200);
    const again = await connections.send({ coupleId: them.coupleId, note: "Hello" }, us.b.headers);
    expect(again.status).toBe(201);
    expect(again.json).toEqual(first.json);
    expect(await helloesCounted(us.coupleId)).toBe(1);
  });

  it("allows a couple under 24 hours old three attempts", async () => {
    const fresh = await messagingCouple({ ageDays: 0 });
    const them = await messagingCouple();
    for (let i = 0; i < 3; i++)
      expect((await connections.send({ coupleId: fresh.coupleId, note: "Hello" }, fresh.a.headers)).status).toBe(404);
    expect((await connections.send({ coupleId: them.coupleId, note: "Hello" }, fresh.a.headers)).status).toBe(429);
  });
});

describe("accept and decline", () => {
  it("leaves no hello 'New' once it is answered: accepted, declined, or accepted by one partner of two who must", async () => {
    const unreadHellos = async (userIds: string[]) => {
      const db = await getDb();
      const rows = await db
        .select({ userId: notifications.userId })
        .from(notifications)
        .where(and(inArray(notifications.userId, userIds), eq(notifications.type, "connection_request"), eq(notifications.isRead, false)));
      return rows.map((row) => row.userId).sort();
    };
    const us = await messagingCouple();
    const accepting = await messagingCouple();
    const sent = await connections.send({ coupleId: accepting.coupleId, note: "Hello" }, us.a.headers);
    expect(sent.status).toBe(201);
    expect(await unreadHellos([accepting.a.userId, accepting.b.userId])).toEqual([accepting.a.userId, accepting.b.userId].sort());
    expect((await connections.accept(sent.json.data.id, accepting.b.headers)).status).toBe(200);
    expect(await unreadHellos([accepting.a.userId, accepting.b.userId])).toEqual([]);

    const declining = await messagingCouple();
    const other = await connections.send({ coupleId: declining.coupleId, note: "Hello" }, us.a.headers);
    expect((await connections.decline(other.json.data.id, declining.a.headers)).status).toBe(200);
    expect(await unreadHellos([declining.a.userId, declining.b.userId])).toEqual([]);

    const careful = await messagingCouple({ bothApprove: true });
    const third = await connections.send({ coupleId: careful.coupleId, note: "Hello" }, us.b.headers);
    await connections.accept(third.json.data.id, careful.a.headers);
    // One partner said yes; the other's hello still waits for them.
    expect(await unreadHellos([careful.a.userId, careful.b.userId])).toEqual([careful.b.userId]);
  });

  it("one partner's acceptance opens the conversation and notifies the sending couple; asking again is ALREADY_CONNECTED", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple();
    const sent = await connections.send({ coupleId: them.coupleId, note: "Hello" }, us.a.headers);
    const res = await connections.accept(sent.json.data.id, them.b.headers);
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({ status: "accepted", conversationId: expect.any(String) });
    const again = await connections.accept(sent.json.data.id, them.a.headers);
    expect(again.json.data).toEqual(res.json.data);
    const notes = await notificationsOf([us.a.userId, us.b.userId, them.a.userId, them.b.userId], "connection_accepted");
    expect(notes.map((n) => n.userId).sort()).toEqual([us.a.userId, us.b.userId].sort());
    expect(notes[0]).toMatchObject({ message: `${them.name} accepted your request`, conversationId: res.json.data.conversationId });
    expect((await connections.list("outgoing", us.a.headers)).json.data[0].status).toBe("accepted");
    expect((await connections.list("incoming", them.a.headers)).json.data).toEqual([]);
    const asked = await connections.send({ coupleId: us.coupleId, note: "Hi" }, them.a.headers);
    expect(asked.status).toBe(409);
    expect(asked.json).toMatchObject({ error: { code: "ALREADY_CONNECTED" }, conversationId: res.json.data.conversationId });
  });

  it("answers 404 to anyone but the receiving partners, and to a malformed id 400", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple();
    const fifth = await messagingCouple();
    const sent = await connections.send({ coupleId: them.coupleId, note: "Hello" }, us.a.headers);
    for (const headers of [us.a.headers, us.b.headers, fifth.a.headers]) {
      expect((await connections.accept(sent.json.data.id, headers)).status).toBe(404);
      expect((await connections.decline(sent.json.data.id, headers)).status).toBe(404);
    }
    expect((await connections.accept(randomUUID(), them.a.headers)).status).toBe(404);
    expect((await connections.accept("nope", them.a.headers)).status).toBe(400);
    expect((await connections.list("sideways", them.a.headers)).status).toBe(400);
  });

  it("a decline is silent: the sender reads pending until it expires, and may ask again only after 90 days", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple();
    const sent = await connections.send({ coupleId: them.coupleId, note: "Hello" }, us.a.headers);
    const id = sent.json.data.id;
    expect((await connections.decline(id, them.a.headers)).json.data).toEqual({ status: "declined" });
    expect((await connections.accept(id, them.b.headers)).status).toBe(404);
    expect((await connections.list("incoming", them.b.headers)).json.data).toEqual([]);
    expect((await connections.list("outgoing", us.a.headers)).json.data[0].status).toBe("pending");
    await age(id, 31);
    expect((await connections.list("outgoing", us.a.headers)).json.data[0].status).toBe("expired");
    expect((await connections.send({ coupleId: them.coupleId, note: "Again" }, us.b.headers)).status).toBe(409);
    expect((await connections.send({ coupleId: us.coupleId, note: "Hi" }, them.b.headers)).status).toBe(409);
    await age(id, 91);
    expect((await connections.send({ coupleId: them.coupleId, note: "Again" }, us.b.headers)).status).toBe(201);
  });

  it("an unanswered request expires after 30 days: it can no longer be accepted", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple();
    const sent = await connections.send({ coupleId: them.coupleId, note: "Hello" }, us.a.headers);
    await age(sent.json.data.id, 30.5);
    expect((await connections.list("incoming", them.a.headers)).json.data).toEqual([]);
    expect((await connections.accept(sent.json.data.id, them.a.headers)).status).toBe(404);
  });

  it("with 'Both of us approve', the request opens only after the second partner accepts; one decline declines it", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple({ bothApprove: true });
    const sent = await connections.send({ coupleId: them.coupleId, note: "Hello" }, us.a.headers);
    const first = await connections.accept(sent.json.data.id, them.a.headers);
    expect(first.json.data).toEqual({ status: "pending", waitingFor: them.b.firstName });
    const incoming = await connections.list("incoming", them.b.headers);
    expect(incoming.json.data[0].approvals).toEqual([
      { firstName: them.a.firstName, accepted: true },
      { firstName: them.b.firstName, accepted: false },
    ]);
    expect((await connections.list("outgoing", us.a.headers)).json.data[0].status).toBe("pending");
    const second = await connections.accept(sent.json.data.id, them.b.headers);
    expect(second.json.data).toEqual({ status: "accepted", conversationId: expect.any(String) });

    const other = await messagingCouple();
    const declined = await connections.send({ coupleId: them.coupleId, note: "Hello" }, other.a.headers);
    await connections.accept(declined.json.data.id, them.a.headers);
    expect((await connections.decline(declined.json.data.id, them.b.headers)).json.data).toEqual({ status: "declined" });
    expect((await connections.accept(declined.json.data.id, them.a.headers)).status).toBe(404);
  });

  it("counts a hello in the Messages badge of each partner who has not answered it, until it is answered or blocked", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple({ bothApprove: true });
    const badge = async (h: Headers) => (await talk.unread(h)).json.data.unread_count;
    const sent = await connections.send({ coupleId: them.coupleId, note: "Hello" }, us.a.headers);
    expect([await badge(them.a.headers), await badge(them.b.headers), await badge(us.a.headers)]).toEqual([1, 1, 0]);
    await connections.accept(sent.json.data.id, them.a.headers);
    expect([await badge(them.a.headers), await badge(them.b.headers)]).toEqual([0, 1]);
    await connections.accept(sent.json.data.id, them.b.headers);
    expect(await badge(them.b.headers)).toBe(0);

    const other = await messagingCouple();
    await connections.send({ coupleId: them.coupleId, note: "Hi" }, other.a.headers);
    expect(await badge(them.a.headers)).toBe(1);
    await block(other.coupleId, them.a.headers);
    expect(await badge(them.a.headers)).toBe(0);
  });

  it("a block after sending takes the request out of both lists and out of reach", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple();
    const sent = await connections.send({ coupleId: them.coupleId, note: "Hello" }, us.a.headers);
    await block(us.coupleId, them.a.headers);
    expect((await connections.list("incoming", them.b.headers)).json.data).toEqual([]);
    expect((await connections.list("outgoing", us.a.headers)).json.data).toEqual([]);
    expect((await connections.accept(sent.json.data.id, them.b.headers)).status).toBe(404);
  });

  it("a suspension takes the couple's hellos out of both lists, the badge and reach, both ways; lifted, an open one is back", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple();
    const other = await messagingCouple();
    const badge = async (h: Headers) => (await talk.unread(h)).json.data.unread_count;
    const sent = await connections.send({ coupleId: them.coupleId, note: "Hello" }, us.a.headers);
    await connections.send({ coupleId: us.coupleId, note: "Hi from us" }, other.a.headers);
    expect(await badge(them.a.headers)).toBe(1);
    const db = await getDb();
    const moderator = await messagingCouple();
    const { id: sanctionId } = await sanctionCouple(
      db,
      { userId: moderator.a.userId, coupleId: moderator.coupleId },
      us.coupleId,
      { kind: "suspend", reason: "spam" },
      SAFETY_REACTIONS,
    );
    expect((await connections.list("incoming", them.b.headers)).json.data).toEqual([]);
    expect((await connections.list("outgoing", other.a.headers)).json.data).toEqual([]);
    expect(await badge(them.a.headers)).toBe(0);
    // Accepting it would open a conversation with a couple nobody may see.
    const accepted = await connections.accept(sent.json.data.id, them.b.headers);
    expect(accepted.status).toBe(404);
    expect(accepted.json.error.message).toBe("This request does not exist or is no longer open.");
    expect((await connections.decline(sent.json.data.id, them.a.headers)).status).toBe(404);

    await liftSanction(db, { userId: moderator.a.userId, coupleId: moderator.coupleId }, sanctionId, "Reviewed", SAFETY_REACTIONS);
    expect((await connections.list("incoming", them.b.headers)).json.data.map((request: { id: string }) => request.id)).toEqual([
      sent.json.data.id,
    ]);
    expect((await connections.accept(sent.json.data.id, them.b.headers)).json.data.status).toBe("accepted");
  });
});

describe.skipIf(!onPostgres())("an answer at the instant of a suspension or a block", () => {
  it("waits for a suspension of the sender under way, then finds the hello gone (404): no conversation opens", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple();
    const sent = await connections.send({ coupleId: them.coupleId, note: "Hello" }, us.a.headers);
    const { waited, answer } = await nextWhileWaiting(
      // What a suspension takes of the couple (lockedCouple), then its change.
      (tx) => tx`select id from couples where id = ${us.coupleId} for no key update`,
      () => connections.accept(sent.json.data.id, them.a.headers),
      (tx) => tx`update couples set status = 'suspended' where id = ${us.coupleId}`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(404);
  });

  it("waits for a block between the two under way (the pair's lock), then finds the hello gone (404)", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple();
    const sent = await connections.send({ coupleId: them.coupleId, note: "Hello" }, us.a.headers);
    const pair = [us.coupleId, them.coupleId].sort().join(":");
    const { waited, answer } = await nextWhileWaiting(
      // What blockCouple takes first (lockCouplePair, lib/safety/blocks.ts), then its row.
      (tx) => tx`select pg_advisory_xact_lock(hashtextextended(${`couple-pair:${pair}`}, 0))`,
      () => connections.accept(sent.json.data.id, them.a.headers),
      (tx) => tx`insert into couple_blocks (blocker_couple_id, blocked_couple_id) values (${them.coupleId}, ${us.coupleId})`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(404);
  });

  it("a hello sent while the other couple's block is under way waits for it, then is refused (404): none stored, nobody told", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple();
    const pair = [us.coupleId, them.coupleId].sort().join(":");
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`select pg_advisory_xact_lock(hashtextextended(${`couple-pair:${pair}`}, 0))`,
      () => connections.send({ coupleId: them.coupleId, note: "Hello" }, us.a.headers),
      (tx) => tx`insert into couple_blocks (blocker_couple_id, blocked_couple_id) values (${them.coupleId}, ${us.coupleId})`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(404);
    const db = await getDb();
    expect(await db.select().from(connectionRequests).where(eq(connectionRequests.fromCoupleId, us.coupleId))).toEqual([]);
    expect(await notificationsOf([them.a.userId, them.b.userId], "connection_request")).toEqual([]);
  });
});

describe("PUT /api/settings/connections", () => {
  it("saves either partner's choice for the couple, and refuses anything but a boolean", async () => {
    const us = await messagingCouple();
    const res = await settings.put({ bothApprove: true }, us.b.headers);
    expect(res.json.data).toEqual({ bothApprove: true });
    expect((await settings.get(us.a.headers)).json.data).toEqual({ bothApprove: true });
    expect((await settings.put({ bothApprove: "yes" }, us.a.headers)).status).toBe(400);
    expect((await settings.put({}, us.a.headers)).status).toBe(400);
  });

  it("turned off, a hello one partner accepted while it waited for the other is accepted: one acceptance now suffices", async () => {
    const one = await messagingCouple();
    const two = await messagingCouple({ bothApprove: true });
    const sent = (await connections.send({ coupleId: two.coupleId, note: "Hello from us" }, one.a.headers)).json.data;
    expect((await connections.accept(sent.id, two.a.headers)).json.data.status).toBe("pending");

    expect((await settings.put({ bothApprove: false }, two.b.headers)).status).toBe(200);
    // Otherwise it waits, with no badge for the partner who answered, until it expires.
    const request = await requestRow(sent.id);
    expect(request).toEqual({ status: "accepted", conversationId: expect.any(String) });
  });
});

describe("PUT /api/settings/connections, rate limit", () => {
  it("answers 429 with Retry-After past the person's limit; their partner and another person are not limited, whatever address is written", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple();
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.connectionSettingsPerUser.limit; i++)
      statuses.push((await settings.put({ bothApprove: i % 2 === 0 }, us.a.headers)).status);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const refused = await settings.put({ bothApprove: true }, us.a.headers);
    expect(refused.status).toBe(429);
    expect(refused.json.error).toMatchObject({ code: "RATE_LIMITED", message: TOO_MANY_REQUESTS });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    for (const forged of FORGED_ADDRESS_HEADERS)
      expect((await settings.put({ bothApprove: true }, { ...us.a.headers, ...forged })).status).toBe(429);
    // Refused: the couple's switch stays as the last save left it.
    expect((await settings.get(us.a.headers)).json.data).toEqual({ bothApprove: false });
    expect((await settings.put({ bothApprove: true }, us.b.headers)).status).toBe(200);
    expect((await settings.put({ bothApprove: true }, them.a.headers)).status).toBe(200);
  });
});

describe.skipIf(!onPostgres())("an acceptance at the instant 'Both of us approve' is turned off", () => {
  it("reads the choice as saved when it answers: the acceptance waiting on the switch's save opens the conversation", async () => {
    const one = await messagingCouple();
    const two = await messagingCouple({ bothApprove: true });
    const sent = (await connections.send({ coupleId: two.coupleId, note: "Hello from us" }, one.a.headers)).json.data;
    // Partner B turns the switch off while partner A's acceptance, its session read with the switch on, waits on the couple's row.
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`update couples set both_approve_connections = false where id = ${two.coupleId}`,
      () => connections.accept(sent.id, two.a.headers),
      async () => {},
    );
    expect(waited).toBe(true);
    // The switch's own sweep of answered hellos ran before this acceptance committed: it found none to open.
    expect(answer.json.data).toEqual({ status: "accepted", conversationId: expect.any(String) });
    expect(await requestRow(sent.id)).toEqual({ status: "accepted", conversationId: answer.json.data.conversationId });
  });
});

describe("a person's answers to hellos", () => {
  it("are found by index, for the data export and the account's erasure, never by reading them all", async () => {
    const userId = randomUUID();
    // The export's read (answersBy) and the erasure's cascade.
    const answers = sql`select c.couple_name, a.accepted from connection_approvals a join connection_requests r on r.id = a.request_id
      join couples c on c.id = r.from_couple_id where a.user_id = ${userId} order by a.created_at desc`;
    for (const query of [answers, sql`delete from connection_approvals where user_id = ${userId}`]) {
      const planned = await queryPlan(query);
      expect(wholeScans(planned)).toEqual([]);
      expect(planned).toContain("connection_approvals_user_idx");
    }
  });
});
