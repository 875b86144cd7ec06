import { readFileSync } from "node:fs";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { GET as topicsRoute } from "@/app/api/forum/topics/route";
import { getDb } from "@/db/client";
import { couples, forumPosts, locations } from "@/db/schema";
import { listPosts, listPostsBySession } from "@/lib/forum/list";
import { FORUM_LIMITS } from "@/lib/forum/rules";
import { listPostsQuerySchema } from "@/lib/forum/schemas";
import { TOO_MANY_REQUESTS } from "@/lib/rate-limit";
import { call, createUser, browserSession, FORGED_ADDRESS_HEADERS } from "../support/api";
import { forum, forumCouple, LISBON, PORTO, postBody, seedPosts, SINTRA } from "../support/forum";
import { whileHeld } from "../support/lock-race";
import { recordingStatements } from "../support/query-plan";
import { onPostgres } from "../support/test-database";

type Post = {
  id: string;
  title: string;
  body: string;
  deleted: boolean;
  author: Record<string, unknown>;
  place: string | null;
  distanceBand: string | null;
  replyCount: number;
};

describe("POST /api/forum/posts", () => {
  it("creates a post signed by the person and their couple (201), readable with GET", async () => {
    const us = await forumCouple();
    const res = await forum.create(postBody({ title: "  Best pastel de nata?  ", body: "Line one\r\nLine two" }), us.a.headers);
    expect(res.status).toBe(201);
    const post = res.json.data;
    expect(post).toMatchObject({
      title: "Best pastel de nata?",
      body: "Line one\nLine two",
      topic: "travel",
      scope: "global",
      photos: [],
      place: null,
      distanceBand: null,
      replyCount: 0,
      reactions: { heart: 0, laugh: 0, wow: 0, clap: 0, hug: 0 },
      myReactions: [],
      editedAt: null,
      deleted: false,
      author: {
        userId: us.a.userId,
        firstName: us.a.firstName,
        coupleId: us.coupleId,
        coupleName: us.name,
        isVerified: true,
        signature: `${us.a.firstName} of ${us.name}`,
      },
    });
    const read = await forum.thread(post.id, us.b.headers);
    expect(read.status).toBe(200);
    expect(read.json.data.post.id).toBe(post.id);
    expect(read.json.data.replies).toEqual([]);
    expect(read.json.data.pagination).toEqual({ limit: 100, nextCursor: null, hasMore: false });
  });

  it("shows the Verified Couple chip by the couple's badge: a suspended couple, still flagged verified, has none in the list or the thread", async () => {
    const us = await forumCouple();
    const reader = await forumCouple();
    const post = (await forum.create(postBody(), us.a.headers)).json.data;
    const reply = (await forum.reply(post.id, { body: "Any tips?" }, us.b.headers)).json.data;
    const chips = async () => {
      const listed = (await forum.list("", reader.a.headers)).json.data.find((p: Post) => p.id === post.id);
      const thread = (await forum.thread(post.id, reader.a.headers)).json.data;
      const replied = thread.replies.find((r: { id: string }) => r.id === reply.id);
      return [listed.author.isVerified, thread.post.author.isVerified, replied.author.isVerified];
    };
    expect(await chips()).toEqual([true, true, true]);
    const db = await getDb();
    await db.update(couples).set({ status: "suspended" }).where(eq(couples.id, us.coupleId));
    expect(await chips()).toEqual([false, false, false]);
  });

  it("refuses bad input with 400 and a clear message, writing nothing", async () => {
    const us = await forumCouple();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ title: "ab" }, "title", "Title must be at least 3 characters"],
      [{ title: "x".repeat(151) }, "title", "Title must be no more than 150 characters"],
      [{ body: "" }, "body", "Please write your post"],
      [{ body: "x".repeat(10_001) }, "body", "Your post must be no more than 10,000 characters"],
      [{ topic: "gossip" }, "topic", "Please choose a topic from the list"],
      [{ scope: "galaxy" }, "scope", "Scope must be global or local"],
      [{ title: 42 }, "title", "Please enter a title"],
      [
        { photos: ["https://evil.example/pixel.gif"] },
        "photos",
        "Please upload the photo here: links to images elsewhere are not accepted",
      ],
      [{ mentions: ["not-a-uuid"] }, "mentions.0", "mentions must be a list of couple ids"],
    ];
    for (const [overrides, field, message] of cases) {
      const res = await forum.create(postBody(overrides), us.a.headers);
      expect(res.status, field).toBe(400);
      expect(res.json.error.code, field).toBe("VALIDATION_ERROR");
      expect(res.json.error.fields?.[field] ?? res.json.error.message, field).toBe(message);
    }
    const db = await getDb();
    expect(await db.select().from(forumPosts).where(eq(forumPosts.coupleId, us.coupleId))).toEqual([]);
  });

  it("refuses a signed-out call (401), a missing CSRF token (403) and a person without a couple (409)", async () => {
    expect((await forum.create(postBody(), {})).status).toBe(401);
    const us = await forumCouple();
    expect((await forum.create(postBody(), { cookie: us.a.headers.cookie! })).json.error.code).toBe("CSRF_VALIDATION_FAILED");
    const loner = await createUser({ occupation: "Baker" });
    const session = await browserSession(loner.id);
    const res = await forum.create(postBody(), { cookie: session.cookie, "x-csrf-token": session.csrf });
    expect(res.status).toBe(409);
    expect(res.json.error.code).toBe("PROFILE_INCOMPLETE");
  });

  it("refuses the same body twice within a minute (409 DUPLICATE_CONTENT)", async () => {
    const us = await forumCouple();
    const body = postBody();
    expect((await forum.create(body, us.a.headers)).status).toBe(201);
    const again = await forum.create({ ...body, title: "Another title" }, us.a.headers);
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe("DUPLICATE_CONTENT");
  });

  it.skipIf(!onPostgres())("posts the same words sent from two tabs at one instant once (the other: 409 DUPLICATE_CONTENT)", async () => {
    const us = await forumCouple();
    const body = postBody();
    // The author's row, which each insert waits on, held on a second connection: both posts are under way
    // at one instant (without the per-author order, both past the duplicate check).
    const posts = await whileHeld(
      (tx) => tx`select id from users where id = ${us.a.userId} for update`,
      [() => forum.create(body, us.a.headers), () => forum.create(body, us.a.headers)],
    );
    expect(posts.map((res) => res.status).sort()).toEqual([201, 409]);
    const db = await getDb();
    expect(await db.select({ id: forumPosts.id }).from(forumPosts).where(eq(forumPosts.coupleId, us.coupleId))).toHaveLength(1);
  });

  it("limits posts per person per hour with 429 and Retry-After", async () => {
    const us = await forumCouple();
    for (let i = 0; i < 10; i++) expect((await forum.create(postBody(), us.a.headers)).status).toBe(201);
    const over = await forum.create(postBody(), us.a.headers);
    expect(over.status).toBe(429);
    expect(over.json.error.code).toBe("RATE_LIMITED");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    // The limit is per person: the partner still posts.
    expect((await forum.create(postBody(), us.b.headers)).status).toBe(201);
  });

  it("stores a local post at city level at most, and refuses one without a usable place", async () => {
    const exact = await forumCouple({ place: { ...LISBON, level: "full" } });
    const res = await forum.create(postBody({ scope: "local" }), exact.a.headers);
    expect(res.status).toBe(201);
    expect(res.json.data.place).toBe("Lisbon, Portugal");
    const db = await getDb();
    const [row] = await db
      .select({ lat: forumPosts.latitude, lng: forumPosts.longitude })
      .from(forumPosts)
      .where(eq(forumPosts.id, res.json.data.id));
    expect(row).toEqual({ lat: 38.72, lng: -9.13 });

    const nowhere = await forumCouple();
    const refused = await forum.create(postBody({ scope: "local" }), nowhere.a.headers);
    expect(refused.status).toBe(409);
    expect(refused.json.error).toMatchObject({ code: "LOCATION_REQUIRED", message: "Set your location to see couples near you." });
    const hidden = await forumCouple({ place: { ...LISBON, level: "hidden" } });
    expect((await forum.create(postBody({ scope: "local" }), hidden.a.headers)).status).toBe(409);
  });
});

describe("PATCH and DELETE /api/forum/posts/{id}", () => {
  it("lets only the author edit (403 for the partner and others), and refuses changing the scope", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const post = (await forum.create(postBody(), us.a.headers)).json.data;
    expect((await forum.patch(post.id, { title: "Not mine" }, us.b.headers)).status).toBe(403);
    expect((await forum.patch(post.id, { title: "Not mine" }, them.a.headers)).status).toBe(403);
    const scope = await forum.patch(post.id, { scope: "local" }, us.a.headers);
    expect(scope.status).toBe(400);
    expect(scope.json.error.message).toBe("The scope of a post cannot be changed: delete it and post again");
    expect((await forum.patch(post.id, {}, us.a.headers)).json.error.message).toBe("Nothing to update");
    const edited = await forum.patch(post.id, { title: "Weekend in Cascais", topic: "outdoors" }, us.a.headers);
    expect(edited.status).toBe(200);
    expect(edited.json.data).toMatchObject({ title: "Weekend in Cascais", topic: "outdoors", editedAt: null });
  });

  it("shows the edited marker only for an edit after the first 5 minutes", async () => {
    const us = await forumCouple();
    const [seeded] = await seedPosts(us.coupleId, us.a.userId, 1, { createdAt: new Date(Date.now() - 10 * 60_000) });
    const edited = await forum.patch(seeded!.id, { body: "Changed my mind" }, us.a.headers);
    expect(edited.json.data.editedAt).not.toBeNull();
  });

  it("deletes a post without replies entirely (404 after), and keeps a thread with replies under a placeholder", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const lonely = (await forum.create(postBody(), us.a.headers)).json.data;
    expect((await forum.remove(lonely.id, them.a.headers)).status).toBe(403);
    expect((await forum.remove(lonely.id, us.a.headers)).status).toBe(200);
    expect((await forum.thread(lonely.id, them.a.headers)).status).toBe(404);
    expect((await forum.remove(lonely.id, us.a.headers)).status).toBe(404);

    const busy = (await forum.create(postBody(), us.a.headers)).json.data;
    expect((await forum.reply(busy.id, { body: "Count us in!" }, them.a.headers)).status).toBe(201);
    await forum.remove(busy.id, us.a.headers);
    const thread = await forum.thread(busy.id, them.a.headers);
    expect(thread.status).toBe(200);
    expect(thread.json.data.post).toMatchObject({ deleted: true, title: "This post was deleted", body: "" });
    expect(thread.json.data.replies).toHaveLength(1);
    const listed = await forum.list("", them.a.headers);
    expect(listed.json.data.map((p: Post) => p.id)).not.toContain(busy.id);
  });

  it("answers 429 with Retry-After past the person's edits, posts and replies together; their partner and another person are not limited, whatever address is written", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const post = (await forum.create(postBody(), us.a.headers)).json.data;
    const reply = (await forum.reply(post.id, { body: "Count us in!" }, us.a.headers)).json.data;
    const statuses: number[] = [];
    for (let i = 0; i < FORUM_LIMITS.editsPerUser.limit; i++)
      statuses.push((await forum.patch(post.id, { body: `Edit number ${i}` }, us.a.headers)).status);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const refused = await forum.patch(post.id, { body: "One more" }, us.a.headers);
    expect(refused.status).toBe(429);
    expect(refused.json.error).toMatchObject({ code: "RATE_LIMITED", message: TOO_MANY_REQUESTS });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await forum.patchReply(reply.id, { body: "Count us out" }, us.a.headers)).status).toBe(429);
    for (const forged of FORGED_ADDRESS_HEADERS)
      expect((await forum.patch(post.id, { body: "One more" }, { ...us.a.headers, ...forged })).status).toBe(429);
    const partners = (await forum.create(postBody(), us.b.headers)).json.data;
    expect((await forum.patch(partners.id, { body: "Mine to edit" }, us.b.headers)).status).toBe(200);
    const theirs = (await forum.create(postBody(), them.a.headers)).json.data;
    expect((await forum.patch(theirs.id, { body: "Ours to edit" }, them.a.headers)).status).toBe(200);
  }, 120_000);

  it("answers 400 for an id that is not a UUID and 404 for one that does not exist", async () => {
    const us = await forumCouple();
    expect((await forum.thread("nope", us.a.headers)).status).toBe(400);
    expect((await forum.thread("00000000-0000-4000-8000-000000000000", us.a.headers)).status).toBe(404);
  });
});

describe("GET /api/forum/posts", () => {
  it("pages with a signed keyset cursor, newest activity first, and refuses a tampered cursor", async () => {
    const us = await forumCouple();
    await seedPosts(us.coupleId, us.a.userId, 5, { topic: "wellness", title: "Keyset post" });
    const first = await forum.list("?topic=wellness&limit=2", us.a.headers);
    expect(first.status).toBe(200);
    expect(first.json.data.map((p: Post) => p.title)).toEqual(["Keyset post", "Keyset post"]);
    expect(first.json.pagination).toMatchObject({ limit: 2, hasMore: true });
    const cursor = first.json.pagination.nextCursor as string;
    // A middle character changed: every bit of it counts (a last one's lowest bits may not, so a change there can decode the same).
    const at = Math.floor(cursor.length / 2);
    const tampered = `${cursor.slice(0, at)}${cursor[at] === "A" ? "B" : "A"}${cursor.slice(at + 1)}`;
    const refused = await forum.list(`?topic=wellness&limit=2&cursor=${encodeURIComponent(tampered)}`, us.a.headers);
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toBe("cursor is not valid: start again from the first page");
    // A cursor made for another list is refused too.
    expect((await forum.list(`?topic=travel&limit=2&cursor=${encodeURIComponent(cursor)}`, us.a.headers)).status).toBe(400);
  });

  it("never repeats or skips a post while new posts are being added between pages", async () => {
    const us = await forumCouple();
    const seeded = await seedPosts(us.coupleId, us.a.userId, 23, { topic: "career_money" });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const qs: string = `?topic=career_money&sort=new&limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const page = await forum.list(qs, us.a.headers);
      expect(page.status).toBe(200);
      seen.push(...page.json.data.map((p: Post) => p.id));
      cursor = page.json.pagination.nextCursor;
      // Someone posts while the reader scrolls: newer posts go above, never into the next pages.
      await seedPosts(us.coupleId, us.b.userId, 1, { topic: "career_money", createdAt: new Date(), lastActivityAt: new Date() });
    } while (cursor);
    expect(seen).toHaveLength(23);
    expect(new Set(seen)).toEqual(new Set(seeded.map((row) => row.id)));
  });

  it("sorts Top by reactions in the last 7 days, leaving out posts without any", async () => {
    const us = await forumCouple();
    const fans = [await forumCouple(), await forumCouple()];
    const [quiet, liked, loved] = await seedPosts(us.coupleId, us.a.userId, 3, { topic: "home_life" });
    await forum.react("post", liked!.id, "heart", true, fans[0]!.a.headers);
    for (const fan of fans) await forum.react("post", loved!.id, "hug", true, fan.b.headers);
    await forum.react("post", loved!.id, "wow", true, fans[0]!.b.headers);
    const first = await forum.list("?topic=home_life&sort=top&limit=1", us.a.headers);
    expect(first.json.data.map((p: Post) => p.id)).toEqual([loved!.id]);
    const next = await forum.list(
      `?topic=home_life&sort=top&limit=1&cursor=${encodeURIComponent(first.json.pagination.nextCursor)}`,
      us.a.headers,
    );
    expect(next.json.data.map((p: Post) => p.id)).toEqual([liked!.id]);
    expect(next.json.pagination.hasMore).toBe(false);
    expect(next.json.data.map((p: Post) => p.id)).not.toContain(quiet!.id);
  });

  it("refuses bad query values with 400", async () => {
    const us = await forumCouple();
    const cases: [string, string][] = [
      ["?scope=mars", "Scope must be global or local"],
      ["?sort=hot", "sort must be one of latest, new, top, nearest"],
      ["?sort=nearest", "sort=nearest is only for the local forum (scope=local)"],
      ["?topic=gossip", "Please choose a topic from the list"],
      ["?radius=30&scope=local", "radius must be one of 10, 25, 50, 100 (km)"],
      ["?limit=51", "limit must be between 1 and 50"],
      [`?q=${"x".repeat(201)}`, "Search must be no more than 200 characters"],
    ];
    for (const [qs, message] of cases) {
      const res = await forum.list(qs, us.a.headers);
      expect(res.status, qs).toBe(400);
      expect(res.json.error.message, qs).toBe(message);
    }
  });

  it("finds posts by a word of their body, ranked (title matches first)", async () => {
    const us = await forumCouple();
    const word = `zebrafish${Date.now()}`;
    await seedPosts(us.coupleId, us.a.userId, 1, { title: "About the aquarium", body: `We saw a ${word} today` });
    await seedPosts(us.coupleId, us.a.userId, 1, { title: `The ${word} club`, body: `All about the ${word}` });
    const res = await forum.list(`?q=${word}`, us.a.headers);
    expect(res.status).toBe(200);
    expect(res.json.data.map((p: Post) => p.title)).toEqual([`The ${word} club`, "About the aquarium"]);
    expect((await forum.list(`?q=${word}%20-club`, us.a.headers)).json.data.map((p: Post) => p.title)).toEqual(["About the aquarium"]);
  });

  it("shows local posts within the radius with a distance band, never a distance, and asks for a place without one", async () => {
    const lisbon = await forumCouple({ place: LISBON });
    const sintra = await forumCouple({ place: SINTRA });
    const porto = await forumCouple({ place: PORTO });
    const title = `Picnic ${Date.now()}`;
    const local = (await forum.create(postBody({ scope: "local", title }), lisbon.a.headers)).json.data;
    const near = await forum.list("?scope=local", sintra.a.headers);
    const found = near.json.data.find((p: Post) => p.id === local.id);
    expect(found).toMatchObject({ place: "Lisbon, Portugal", distanceBand: "within 25 km" });
    expect(JSON.stringify(found)).not.toMatch(/latitude|longitude|distanceKm/);
    expect((await forum.list("?scope=local&radius=10", sintra.a.headers)).json.data.map((p: Post) => p.id)).not.toContain(local.id);
    expect((await forum.list("?scope=local", porto.a.headers)).json.data.map((p: Post) => p.id)).not.toContain(local.id);
    expect((await forum.list("?scope=local&radius=100&sort=nearest", sintra.a.headers)).json.data[0].distanceBand).toMatch(
      /^within \d+ km$/,
    );
    // The global forum does not list local posts.
    expect((await forum.list("", sintra.a.headers)).json.data.map((p: Post) => p.id)).not.toContain(local.id);
    const nowhere = await forumCouple();
    const asked = await forum.list("?scope=local", nowhere.a.headers);
    expect(asked.status).toBe(409);
    expect(asked.json.error.code).toBe("LOCATION_REQUIRED");
  });

  it("takes a local post's place away with its couple's: hidden place, country only, coarser than it posted, or a hidden couple; back when shown again", async () => {
    const lisbon = await forumCouple({ place: LISBON });
    const sintra = await forumCouple({ place: SINTRA });
    const local = (await forum.create(postBody({ scope: "local", title: `Market ${Date.now()}` }), lisbon.a.headers)).json.data;
    const db = await getDb();
    const listed = async () => (await forum.list("?scope=local", sintra.a.headers)).json.data.some((p: Post) => p.id === local.id);
    const seen = async (who: typeof sintra) => (await forum.thread(local.id, who.a.headers)).json.data.post;
    const level = (privacyLevel: "city" | "region" | "country" | "hidden") =>
      db
        .update(locations)
        .set({ privacyLevel })
        .where(and(eq(locations.entityType, "couple"), eq(locations.entityId, lisbon.coupleId)));
    expect(await listed()).toBe(true);
    for (const privacyLevel of ["hidden", "country"] as const) {
      await level(privacyLevel);
      expect(await listed()).toBe(false);
      expect(await seen(sintra)).toMatchObject({ place: null, distanceBand: null });
      // Its own couple still sees where it posted.
      expect((await seen(lisbon)).place).toBe("Lisbon, Portugal");
    }
    // Shown less finely than when it posted (region, not its city): the city comes off the post.
    await level("region");
    expect(await listed()).toBe(false);
    expect(await seen(sintra)).toMatchObject({ place: null, distanceBand: null });
    await level("city");
    expect(await listed()).toBe(true);
    await db.update(couples).set({ isVisible: false }).where(eq(couples.id, lisbon.coupleId));
    expect(await listed()).toBe(false);
    expect(await seen(sintra)).toMatchObject({ place: null, distanceBand: null });
  });

  it("keeps a post made at region level shown while its couple shows its region or finer", async () => {
    const lisbon = await forumCouple({ place: LISBON });
    const sintra = await forumCouple({ place: SINTRA });
    const db = await getDb();
    const level = (privacyLevel: "full" | "region") =>
      db
        .update(locations)
        .set({ privacyLevel })
        .where(and(eq(locations.entityType, "couple"), eq(locations.entityId, lisbon.coupleId)));
    await level("region");
    const local = (await forum.create(postBody({ scope: "local", title: `Region ${Date.now()}` }), lisbon.a.headers)).json.data;
    const [row] = await db.select({ placeLevel: forumPosts.placeLevel }).from(forumPosts).where(eq(forumPosts.id, local.id));
    expect(row!.placeLevel).toBe("region");
    for (const privacyLevel of ["region", "full"] as const) {
      await level(privacyLevel);
      const found = (await forum.list("?scope=local&radius=100", sintra.a.headers)).json.data.find((p: Post) => p.id === local.id);
      expect(found?.place).toBe(local.place);
    }
  });

  it("gives posts made before levels theirs by their point (migration 0042), and reads a post without one as city", async () => {
    const lisbon = await forumCouple({ place: LISBON });
    const sintra = await forumCouple({ place: SINTRA });
    const local = { scope: "local" as const, place: "Lisbon, Portugal", placeLevel: null };
    const [city, region, none] = [
      ...(await seedPosts(lisbon.coupleId, lisbon.a.userId, 1, { ...local, latitude: 38.71, longitude: -9.14 })),
      ...(await seedPosts(lisbon.coupleId, lisbon.a.userId, 1, { ...local, latitude: 39, longitude: -9 })),
      ...(await seedPosts(lisbon.coupleId, lisbon.a.userId, 1, { ...local, latitude: 38.72, longitude: -9.13 })),
    ].map((row) => row.id);
    const db = await getDb();
    const migration = readFileSync("db/migrations/0042_forum_place_level.sql", "utf8").split("--> statement-breakpoint");
    const backfill = migration
      .find((statement) => statement.trimStart().startsWith("UPDATE"))!
      .trim()
      .replace(/;$/, "");
    await db.execute(sql.raw(`${backfill} AND "id" IN ('${city}', '${region}')`));
    const levels = await db
      .select({ id: forumPosts.id, placeLevel: forumPosts.placeLevel })
      .from(forumPosts)
      .where(eq(forumPosts.coupleId, lisbon.coupleId));
    expect(Object.fromEntries(levels.map((row) => [row.id, row.placeLevel]))).toEqual({
      [city!]: "city",
      [region!]: "region",
      [none!]: null,
    });
    await db
      .update(locations)
      .set({ privacyLevel: "region" })
      .where(and(eq(locations.entityType, "couple"), eq(locations.entityId, lisbon.coupleId)));
    const listed = (await forum.list("?scope=local&radius=100", sintra.a.headers)).json.data.map((p: Post) => p.id);
    expect([city, region, none].map((id) => listed.includes(id))).toEqual([false, true, false]);
  });

  it.skipIf(!onPostgres())(
    "runs a local list as one prepared statement for every viewer, their centre, box and radius bound; a box split at the antimeridian is a statement of its own",
    async () => {
      const lisbon = await forumCouple({ place: LISBON });
      const sintra = await forumCouple({ place: SINTRA });
      const fiji = await forumCouple({ place: { lat: -16.43, lng: 179.96, city: "Labasa", country: "Fiji" } });
      const local = { scope: "local" as const, place: "Somewhere" };
      const [inLisbon] = await seedPosts(lisbon.coupleId, lisbon.a.userId, 1, { ...local, latitude: 38.71, longitude: -9.14 });
      const [acrossTheLine] = await seedPosts(fiji.coupleId, fiji.a.userId, 1, { ...local, latitude: -16.45, longitude: -179.97 });
      // A handle of its own: nothing is prepared on it yet.
      const { logging } = recordingStatements(await getDb());
      const listed = async (who: typeof lisbon, radius: string) =>
        (
          await listPosts(logging, { userId: who.a.userId }, listPostsQuerySchema.parse({ scope: "local", sort: "nearest", radius }))
        ).data.map((p) => p.id);
      expect(await listed(lisbon, "10")).toContain(inLisbon!.id);
      const built = vi.spyOn(logging, "select");
      // Another place and radius: the same statement, not built again.
      expect(await listed(sintra, "25")).toContain(inLisbon!.id);
      expect(await listed(sintra, "10")).not.toContain(inLisbon!.id);
      expect(built).not.toHaveBeenCalled();
      // Across the antimeridian the box is two: built once, then reused too, and the single box stays right.
      expect(await listed(fiji, "10")).toContain(acrossTheLine!.id);
      expect(built).toHaveBeenCalled();
      built.mockClear();
      expect(await listed(fiji, "25")).toContain(acrossTheLine!.id);
      expect(await listed(lisbon, "10")).not.toContain(acrossTheLine!.id);
      expect(built).not.toHaveBeenCalled();
    },
  );

  it.skipIf(!onPostgres())(
    "finds the viewer and their couple once per list statement: the visibility rules reuse them, their values bound once",
    async () => {
      const author = await forumCouple({ place: LISBON });
      const reader = await forumCouple({ place: LISBON });
      await seedPosts(author.coupleId, author.a.userId, 3);
      const session = await browserSession(reader.a.userId);
      const { logging, logged } = recordingStatements(await getDb());
      const lists = [
        () => listPosts(logging, { userId: reader.a.userId }, listPostsQuerySchema.parse({ scope: "global" })),
        () =>
          listPosts(logging, { userId: reader.a.userId }, listPostsQuerySchema.parse({ scope: "global", sort: "new" }), {
            coupleId: author.coupleId,
          }),
        () =>
          listPosts(logging, { userId: reader.a.userId }, listPostsQuerySchema.parse({ scope: "local", sort: "nearest", radius: "25" })),
        () =>
          listPostsBySession(
            logging,
            session.sid,
            async () => listPostsQuerySchema.parse({ scope: "global", sort: "top" }),
            async () => null,
          ),
      ];
      for (const list of lists) {
        logged.length = 0;
        await list();
        const statement = logged.find((one) => one.query.includes('"forum_posts"."title"'))!;
        const viewerValues = statement.params.filter((value) => value === reader.a.userId || value === session.sid);
        expect(viewerValues, statement.query).toHaveLength(1);
        expect(statement.query.match(/from couples vc/g), statement.query).toHaveLength(1);
      }
    },
  );

  it("pages the local Nearest list by a cursor that carries no distance (the server measures the last post again)", async () => {
    const viewer = await forumCouple({ place: SINTRA });
    const sintra = await forumCouple({ place: SINTRA });
    const lisbon = await forumCouple({ place: LISBON });
    const stamp = Date.now();
    const mine = [
      (await forum.create(postBody({ scope: "local", title: `Near ${stamp}` }), sintra.a.headers)).json.data.id as string,
      (await forum.create(postBody({ scope: "local", title: `Less near ${stamp}` }), lisbon.a.headers)).json.data.id as string,
      (await forum.create(postBody({ scope: "local", title: `Also less near ${stamp}` }), lisbon.b.headers)).json.data.id as string,
    ];
    const whole = (await forum.list("?scope=local&radius=100&sort=nearest&limit=50", viewer.a.headers)).json.data.map((p: Post) => p.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 30; pages++) {
      const res = await forum.list(
        `?scope=local&radius=100&sort=nearest&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
        viewer.a.headers,
      );
      expect(res.status).toBe(200);
      seen.push(...res.json.data.map((p: Post) => p.id));
      cursor = res.json.pagination.nextCursor;
      if (!cursor) break;
      const payload = JSON.parse(Buffer.from(cursor.split(".")[0]!, "base64url").toString("utf8")) as [string, number, string];
      expect(payload[1]).toBe(0);
    }
    expect(seen).toEqual(whole);
    expect(seen.indexOf(mine[0]!)).toBeGreaterThanOrEqual(0);
    expect(seen.indexOf(mine[0]!)).toBeLessThan(seen.indexOf(mine[1]!));
  });
});

describe("GET /api/forum/topics", () => {
  it("answers the fixed topic list", async () => {
    const res = await call(topicsRoute, "GET", "/api/forum/topics");
    expect(res.status).toBe(200);
    expect(res.json.data.map((t: { value: string }) => t.value)).toEqual([
      "travel",
      "food_drink",
      "outdoors",
      "culture_creativity",
      "wellness",
      "career_money",
      "home_life",
      "meetups",
    ]);
    expect(res.json.data[1]).toEqual({ value: "food_drink", label: "Food & Drink" });
  });
});
