import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import { browserSession, createUser, revokedSessionCookie } from "../support/api";
import { connected, talk } from "../support/messages";

type Shown = { id: string; body: string | null; reactions: { kind: string; mine: boolean }[] };

/**
 * GET /api/conversations/{id}/messages reads the page in the statement that checks the session
 * (lib/messages/thread.ts threadBySession): the session, the profile check, the membership and
 * the input order must hold as on every other call, with messages to read and without.
 */
describe("a thread read with its session", () => {
  it("reads the newest page and the one before it, each message once, oldest first", async () => {
    const { one, two, conversationId } = await connected();
    const sent: string[] = [];
    for (let i = 0; i < 5; i++)
      sent.push((await talk.send(conversationId, { body: `Note ${i}` }, i % 2 ? two.a.headers : one.a.headers)).json.data.id);
    const newest = await talk.thread(conversationId, one.b.headers, "?limit=3");
    expect(newest.status).toBe(200);
    expect(newest.json.data.map((m: Shown) => m.id)).toEqual(sent.slice(2));
    expect(newest.json.pagination.hasMore).toBe(true);
    const older = await talk.thread(conversationId, one.b.headers, `?limit=3&before=${sent[2]}`);
    expect(older.json.data.map((m: Shown) => m.id)).toEqual(sent.slice(0, 2));
    expect(older.json.pagination.hasMore).toBe(false);
    // Before the first message: an empty page, not a 404.
    expect((await talk.thread(conversationId, one.b.headers, `?before=${sent[0]}`)).json).toEqual({
      data: [],
      pagination: { hasMore: false },
    });
  });

  it("answers an empty thread with an empty page, and what is not the member's with 404", async () => {
    const { one, conversationId } = await connected();
    expect((await talk.thread(conversationId, one.a.headers)).json).toEqual({ data: [], pagination: { hasMore: false } });
    await talk.send(conversationId, { body: "Just between us" }, one.a.headers);
    const stranger = (await connected()).one;
    const refused = await talk.thread(conversationId, stranger.a.headers);
    expect(refused.status).toBe(404);
    expect(JSON.stringify(refused.json)).not.toContain("Just between us");
    // A message of another conversation is no place to read before.
    const elsewhere = await connected();
    const theirs = (await talk.send(elsewhere.conversationId, { body: "Theirs" }, elsewhere.one.a.headers)).json.data.id;
    expect((await talk.thread(conversationId, one.a.headers, `?before=${theirs}`)).status).toBe(404);
  });

  it("refuses a dead session (401) and an incomplete profile (409), showing nothing", async () => {
    const { one, conversationId } = await connected();
    await talk.send(conversationId, { body: "Our little secret" }, one.a.headers);
    const dead = await talk.thread(conversationId, await revokedSessionCookie(one.a.userId));
    expect(dead.status).toBe(401);
    expect(JSON.stringify(dead.json)).not.toContain("secret");
    const loner = await createUser({ occupation: "Baker" });
    const incomplete = await talk.thread(conversationId, { cookie: (await browserSession(loner.id)).cookie });
    expect(incomplete.json.error?.code).toBe("PROFILE_INCOMPLETE");
  });

  it("refuses a member whose own profile is not complete (409), with messages to read", async () => {
    const { one, conversationId } = await connected();
    await talk.send(conversationId, { body: "See you on Friday" }, one.b.headers);
    await (await getDb()).update(users).set({ occupation: null }).where(eq(users.id, one.a.userId));
    const refused = await talk.thread(conversationId, one.a.headers);
    expect(refused.json.error?.code).toBe("PROFILE_INCOMPLETE");
    expect(JSON.stringify(refused.json)).not.toContain("Friday");
  });

  it("checks the session before the input: 401 for a bad query without one, 400 with one", async () => {
    const { one, conversationId } = await connected();
    expect((await talk.thread(conversationId, {}, "?before=nope")).status).toBe(401);
    expect((await talk.thread(conversationId, await revokedSessionCookie(one.a.userId), "?before=nope")).status).toBe(401);
    expect((await talk.thread(conversationId, one.a.headers, "?before=nope")).status).toBe(400);
    expect((await talk.thread("not-a-uuid", one.a.headers)).status).toBe(400);
  });

  it("shows each person their own reactions", async () => {
    const { one, two, conversationId } = await connected();
    const sent = (await talk.send(conversationId, { body: "We booked the table" }, two.a.headers)).json.data.id;
    await talk.react(sent, "heart", true, one.b.headers);
    const reactionsOf = async (headers: Record<string, string>) =>
      ((await talk.thread(conversationId, headers)).json.data as Shown[]).find((m) => m.id === sent)!.reactions;
    expect(await reactionsOf(one.b.headers)).toMatchObject([{ kind: "heart", mine: true }]);
    expect(await reactionsOf(one.a.headers)).toMatchObject([{ kind: "heart", mine: false }]);
  });
});
