import { describe, expect, it } from "vitest";
import { PUT as blockRoute } from "@/app/api/couples/[id]/block/route";
import { getDb } from "@/db/client";
import { revokeSession } from "@/lib/auth/sessions";
import { browserSession, call, createUser } from "../support/api";
import { forum, forumCouple, LISBON, postBody } from "../support/forum";

/**
 * GET /api/forum/posts reads a global list in the statement that checks the session
 * (lib/forum/list.ts listPostsBySession): the session, the profile check and the input order
 * must hold as on every other call, with posts to list and without.
 */
describe("the forum list read with its session", () => {
  const LISTS = ["?scope=global", "?scope=global&sort=new&topic=travel", "?scope=local", "?scope=global&q=weekend"];

  async function revoked() {
    const us = await forumCouple({ place: LISBON });
    const session = await browserSession(us.a.userId);
    await revokeSession(await getDb(), session.sid);
    return { cookie: session.cookie };
  }

  async function incomplete() {
    const loner = await createUser({ occupation: "Baker" });
    return { cookie: (await browserSession(loner.id)).cookie };
  }

  it("answers an empty forum with an empty page, and refuses a dead session (401) and an incomplete profile (409) all the same", async () => {
    const us = await forumCouple({ place: LISBON });
    const empty = await forum.list("?scope=global", us.a.headers);
    expect(empty).toMatchObject({ status: 200, json: { data: [], pagination: { limit: 20, nextCursor: null, hasMore: false } } });
    for (const list of LISTS) {
      expect((await forum.list(list, await revoked())).json.error?.code, list).toBe("UNAUTHENTICATED");
      expect((await forum.list(list, await incomplete())).json.error?.code, list).toBe("PROFILE_INCOMPLETE");
    }
  });

  it("lists nothing to a dead session or an incomplete profile once there are posts to list", async () => {
    const author = await forumCouple({ place: LISBON });
    await forum.create(postBody({ title: "A weekend in Lisbon", body: "A weekend of tiles and trams." }), author.a.headers);
    await forum.create(postBody({ title: "Lisbon, locally", body: "A local weekend.", scope: "local" }), author.a.headers);
    const reader = await forumCouple({ place: LISBON });
    for (const list of LISTS) {
      const seen = await forum.list(list, reader.a.headers);
      expect(seen.status, list).toBe(200);
      expect(seen.json.data.length, list).toBeGreaterThan(0);
      const dead = await forum.list(list, await revoked());
      expect(dead.status, list).toBe(401);
      expect(JSON.stringify(dead.json), list).not.toContain("Lisbon");
      const loner = await forum.list(list, await incomplete());
      expect(loner.status, list).toBe(409);
      expect(JSON.stringify(loner.json), list).not.toContain("Lisbon");
    }
  });

  it("checks the session before the input: 401 for a bad query without one, 400 with one", async () => {
    const us = await forumCouple();
    expect((await forum.list("?scope=everywhere", {})).status).toBe(401);
    expect((await forum.list("?scope=everywhere", await revoked())).status).toBe(401);
    const bad = await forum.list("?scope=everywhere", us.a.headers);
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe("VALIDATION_ERROR");
  });

  it("lists as the session's own person: their reactions, and not the posts of a couple they blocked", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const post = (await forum.create(postBody({ title: "Reacted to" }), them.a.headers)).json.data as { id: string };
    await forum.react("post", post.id, "hug", true, us.b.headers);
    const listed = async (h: Record<string, string>) =>
      ((await forum.list("?scope=global&limit=50", h)).json.data as { id: string; myReactions: string[] }[]).find((p) => p.id === post.id);
    expect((await listed(us.b.headers))?.myReactions).toEqual(["hug"]);
    expect((await listed(us.a.headers))?.myReactions).toEqual([]);
    expect(
      (await call(blockRoute, "PUT", `/api/couples/${them.coupleId}/block`, { headers: us.a.headers, params: { id: them.coupleId } }))
        .status,
    ).toBeLessThan(300);
    expect(await listed(us.b.headers)).toBeUndefined();
    // Both ways: they no longer see ours.
    const ours = (await forum.create(postBody({ title: "Ours" }), us.b.headers)).json.data as { id: string };
    const theirList = (await forum.list("?scope=global&limit=50", them.b.headers)).json.data as { id: string }[];
    expect(theirList.map((p) => p.id)).not.toContain(ours.id);
    expect(theirList.map((p) => p.id)).toContain(post.id);
  });
});
