import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import { browserSession, createUser, revokedSessionCookie } from "../support/api";
import { connected, messagingCouple, talk } from "../support/messages";

/**
 * GET /api/conversations reads the inbox's first page in the statement that checks the session
 * (lib/messages/inbox.ts inboxBySession): the session, the profile check and the input order must
 * hold as on every other call, with conversations to list and without.
 */
describe("the inbox read with its session", () => {
  it("answers an empty inbox with an empty page, and refuses a dead session (401) and an incomplete profile (409)", async () => {
    const us = await messagingCouple();
    expect(await talk.inbox(us.a.headers)).toMatchObject({
      status: 200,
      json: { data: [], pagination: { hasMore: false, nextCursor: null } },
    });
    expect((await talk.inbox(await revokedSessionCookie(us.a.userId))).json.error?.code).toBe("UNAUTHENTICATED");
    const loner = await createUser({ occupation: "Baker" });
    expect((await talk.inbox({ cookie: (await browserSession(loner.id)).cookie })).json.error?.code).toBe("PROFILE_INCOMPLETE");
  });

  it("shows nothing of a conversation to a dead session", async () => {
    const { one, two } = await connected();
    const seen = await talk.inbox(one.a.headers);
    expect(seen.json.data.map((item: { couple: { id: string } }) => item.couple.id)).toEqual([two.coupleId]);
    const dead = await talk.inbox(await revokedSessionCookie(one.a.userId));
    expect(dead.status).toBe(401);
    expect(JSON.stringify(dead.json)).not.toContain(two.coupleId);
  });

  it("refuses a member whose own profile is not complete (409), with conversations to list", async () => {
    const { one, two } = await connected();
    await (await getDb()).update(users).set({ occupation: null }).where(eq(users.id, one.a.userId));
    const refused = await talk.inbox(one.a.headers);
    expect(refused.json.error?.code).toBe("PROFILE_INCOMPLETE");
    expect(JSON.stringify(refused.json)).not.toContain(two.coupleId);
  });

  it("checks the session before the input: 401 for a bad cursor without one, 400 with one", async () => {
    const us = await messagingCouple();
    const long = `?cursor=${"x".repeat(5_000)}`;
    expect((await talk.inbox({}, long)).status).toBe(401);
    expect((await talk.inbox(await revokedSessionCookie(us.a.userId), long)).status).toBe(401);
    const bad = await talk.inbox(us.a.headers, long);
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe("VALIDATION_ERROR");
  });

  it("counts the unread messages of the session's own person, not their partner's", async () => {
    const { one, two, conversationId } = await connected();
    const sent = await talk.send(conversationId, { body: "Dinner on Friday?" }, two.a.headers);
    await talk.read(conversationId, { upTo: sent.json.data.id }, one.a.headers);
    const unreadOf = async (headers: Record<string, string>) => (await talk.inbox(headers)).json.data[0].unreadCount;
    expect(await unreadOf(one.a.headers)).toBe(0);
    expect(await unreadOf(one.b.headers)).toBe(1);
    // The writer's own message is never unread for them; their partner has it to read.
    expect(await unreadOf(two.a.headers)).toBe(0);
    expect(await unreadOf(two.b.headers)).toBe(1);
  });
});
