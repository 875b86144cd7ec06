import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as mentions } from "@/app/api/forum/mentions/route";
import { getDb } from "@/db/client";
import {
  coupleBlocks,
  couples,
  emailOutbox,
  forumMentions,
  forumPosts,
  forumReplies,
  notifications,
  rateLimitHits,
  users,
} from "@/db/schema";
import { FORUM_LIMITS } from "@/lib/forum/rules";
import { call, FORGED_ADDRESS_HEADERS } from "../support/api";
import { TOO_MANY_REQUESTS } from "@/lib/rate-limit";
import { withCouple, type Headers } from "../support/couples";
import { forum, forumCouple, LISBON, mentioning, PORTO, postBody, SINTRA, type TestCouple } from "../support/forum";

const search = (q: string, headers: Headers) =>
  call(mentions, "GET", `/api/forum/mentions?q=${encodeURIComponent(q)}`, { headers: { cookie: headers.cookie! } });

describe("GET /api/forum/mentions", () => {
  it("offers discoverable couples whose name contains the query, never the caller's own couple", async () => {
    const tag = `Zq${Date.now().toString(36)}`;
    const mine = await withCouple({ couple_name: `${tag}ara & Mo` });
    const other = await withCouple({ couple_name: `Lia & ${tag}eno` });
    const hidden = await withCouple({ couple_name: `${tag}ulu & Ana` });
    const db = await getDb();
    await db.update(couples).set({ isVisible: false }).where(eq(couples.id, hidden.coupleId));

    const res = await search(tag, mine.headers);
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual([{ coupleId: other.coupleId, name: `Lia & ${tag}eno`, imageUrl: null, partner: null }]);
  });

  it("ranks the whole name first, then a name starting with the query, then the couples nearest the writer", async () => {
    const tag = `Zr${Date.now().toString(36)}`;
    const writer = await forumCouple({ place: LISBON });
    // Nine couples that sort before the one typed in full and share every word of the query.
    for (let i = 0; i < 9; i++) await forumCouple({ name: `${tag} Aa${i} Smiths`, place: SINTRA });
    const smiths = await forumCouple({ name: `${tag} Smiths`, place: PORTO });
    const res = await search(`${tag} smiths`, writer.a.headers);
    expect(res.json.data).toHaveLength(8);
    expect(res.json.data[0]).toMatchObject({ coupleId: smiths.coupleId });

    const far = await forumCouple({ name: `Bo ${tag}x`, place: PORTO });
    const unplaced = await forumCouple({ name: `Al ${tag}x` });
    const near = await forumCouple({ name: `Cy ${tag}x`, place: SINTRA });
    const starts = await forumCouple({ name: `${tag}x Zed` });
    const ids = (await search(`${tag}x`, writer.a.headers)).json.data.map((m: { coupleId: string }) => m.coupleId);
    expect(ids).toEqual([starts.coupleId, near.coupleId, far.coupleId, unplaced.coupleId]);
  });

  it("finds a couple by a partner's first name from its start, and says which partner matched", async () => {
    const tag = `Zp${Date.now().toString(36)}`;
    const writer = await forumCouple({ place: LISBON });
    const theirs = await forumCouple({ name: "The Quietfields", place: SINTRA });
    const db = await getDb();
    await db
      .update(users)
      .set({ firstName: `${tag}andre` })
      .where(eq(users.id, theirs.b.userId));
    const named = await forumCouple({ name: `${tag}ana & Kai`, place: PORTO });

    const found = (await search(tag, writer.a.headers)).json.data;
    expect(found).toEqual(
      expect.arrayContaining([
        { coupleId: theirs.coupleId, name: "The Quietfields", imageUrl: null, partner: `${tag}andre` },
        { coupleId: named.coupleId, name: `${tag}ana & Kai`, imageUrl: null, partner: null },
      ]),
    );
    // Typed on, only the partner's couple is left; a name in the middle never matches.
    expect((await search(`${tag}and`, writer.a.headers)).json.data).toEqual([
      { coupleId: theirs.coupleId, name: "The Quietfields", imageUrl: null, partner: `${tag}andre` },
    ]);
    expect((await search(`ndre${tag}`, writer.a.headers)).json.data).toEqual([]);
  });

  it("finds names holding digits", async () => {
    const tag = `Zs${Date.now().toString(36)}`;
    const writer = await forumCouple();
    const ada = await forumCouple({ name: `Ada${tag}3z1w & Co` });
    const res = await search(`Ada${tag}3z1`, writer.a.headers);
    expect(res.json.data).toEqual([{ coupleId: ada.coupleId, name: `Ada${tag}3z1w & Co`, imageUrl: null, partner: null }]);
  });

  it("treats LIKE wildcards as letters", async () => {
    const { headers } = await withCouple();
    const res = await search("%%", headers);
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual([]);
  });

  it("refuses a query shorter than two letters or longer than 50 with 400 and its limit, and a signed-out call with 401", async () => {
    const { headers } = await withCouple();
    expect((await search("a", headers)).status).toBe(400);
    const long = await search("x".repeat(51), headers);
    expect(long.status).toBe(400);
    expect(long.json.error.message).toBe("A couple's name to mention must be no more than 50 characters");
    expect((await call(mentions, "GET", "/api/forum/mentions?q=ab")).status).toBe(401);
  });

  it("answers 429 with Retry-After past the person's limit; their partner and another person are not limited, whatever address is written", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const statuses: number[] = [];
    for (let i = 0; i < FORUM_LIMITS.mentionSearchesPerUser.limit; i++) statuses.push((await search("Zz", us.a.headers)).status);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const refused = await search("Zz", us.a.headers);
    expect(refused.status).toBe(429);
    expect(refused.json.error).toMatchObject({ code: "RATE_LIMITED", message: TOO_MANY_REQUESTS });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    for (const forged of FORGED_ADDRESS_HEADERS)
      expect(
        (await call(mentions, "GET", "/api/forum/mentions?q=Zz", { headers: { cookie: us.a.headers.cookie!, ...forged } })).status,
      ).toBe(429);
    for (const other of [us.b, them.a]) expect((await search("Zz", other.headers)).status).toBe(200);
  }, 120_000);
});

describe("mentions edited in a post or reply", () => {
  /** The mention notifications and e-mails each partner of `couple` got, in their order. */
  async function told(couple: TestCouple, postId: string) {
    const db = await getDb();
    const partners = [couple.a.userId, couple.b.userId];
    const rows = await db
      .select({ userId: notifications.userId })
      .from(notifications)
      .where(and(inArray(notifications.userId, partners), eq(notifications.type, "mention"), eq(notifications.postId, postId)));
    const addresses = await db.select({ email: users.email }).from(users).where(inArray(users.id, partners));
    const mails = await db
      .select({ to: emailOutbox.to })
      .from(emailOutbox)
      .where(
        inArray(
          emailOutbox.to,
          addresses.map((row) => row.email),
        ),
      );
    return partners.map((userId, i) => ({
      notifications: rows.filter((row) => row.userId === userId).length,
      mails: mails.filter((row) => row.to === addresses[i]!.email).length,
    }));
  }

  it("tells a couple once, however often the mention is edited out and back in", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const post = (await forum.create(postBody({ body: `Ask @${them.name}` }), us.a.headers)).json.data;
    const reply = (await forum.reply(post.id, { body: "Any tips?" }, us.a.headers)).json.data;
    for (let i = 0; i < 40; i++) {
      const body = `Any tips, @${them.name}? ${i}`;
      expect((await forum.patch(post.id, { mentions: [] }, us.a.headers)).status).toBe(200);
      expect((await forum.patch(post.id, { mentions: [them.coupleId] }, us.a.headers)).status).toBe(200);
      expect((await forum.patchReply(reply.id, { body, mentions: [] }, us.a.headers)).status).toBe(200);
      expect((await forum.patchReply(reply.id, { body, mentions: [them.coupleId] }, us.a.headers)).status).toBe(200);
    }
    // One for the post and one for the reply, each partner, in the bell and by e-mail.
    const once = { notifications: 2, mails: 2 };
    expect(await told(them, post.id)).toEqual([once, once]);
  });

  it("counts each couple newly told against the person's hourly limit, then answers 429", async () => {
    const us = await forumCouple();
    const [one, two, three] = [await forumCouple(), await forumCouple(), await forumCouple()];
    const limit = FORUM_LIMITS.mentionedCouplesPerUser;
    const db = await getDb();
    await db.insert(rateLimitHits).values(Array.from({ length: limit.limit - 2 }, () => ({ bucket: limit.bucket, subject: us.a.userId })));
    const post = (await forum.create(postBody(mentioning(one)), us.a.headers)).json.data;
    const reply = await forum.reply(post.id, mentioning(two), us.a.headers);
    expect(reply.status).toBe(201);
    const over = await forum.patch(post.id, mentioning(one, three), us.a.headers);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await told(three, post.id)).map((partner) => partner.notifications)).toEqual([0, 0]);
  });

  it("keeps only the couples the text still names: an id sent without its '@name' is neither stored nor told", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const post = (await forum.create(postBody({ body: "hi", mentions: [them.coupleId] }), us.a.headers)).json.data;
    expect(post.mentions).toEqual([]);
    const reply = (await forum.reply(post.id, { body: "hi again", mentions: [them.coupleId] }, us.a.headers)).json.data;
    expect(reply.mentions).toEqual([]);
    expect((await forum.patch(post.id, { mentions: [them.coupleId] }, us.a.headers)).status).toBe(200);
    expect((await forum.patchReply(reply.id, { body: "hi, still", mentions: [them.coupleId] }, us.a.headers)).status).toBe(200);
    const db = await getDb();
    expect(await db.select().from(forumMentions).where(eq(forumMentions.postId, post.id))).toEqual([]);
    const none = { notifications: 0, mails: 0 };
    expect(await told(them, post.id)).toEqual([none, none]);
  });

  it("neither stores nor tells a couple whose '@name' the words hold only inside a longer name: the post shows no link to them", async () => {
    const us = await forumCouple();
    const short = await forumCouple({ name: `Ana${Date.now().toString(36)}` });
    const long = await forumCouple({ name: `${short.name} & Rui` });
    const body = `Hello @${short.name}belle and @${long.name}`;
    const post = (await forum.create(postBody({ body, mentions: [short.coupleId, long.coupleId] }), us.a.headers)).json.data;
    expect(post.mentions.map((m: { coupleId: string }) => m.coupleId)).toEqual([long.coupleId]);
    const reply = (await forum.reply(post.id, { body: `Hi @${short.name}belle`, mentions: [short.coupleId] }, us.a.headers)).json.data;
    expect(reply.mentions).toEqual([]);
    const none = { notifications: 0, mails: 0 };
    expect(await told(short, post.id)).toEqual([none, none]);
  });

  it("drops a mention whose '@name' an edit sending no mentions took out of the words, and keeps the ones still named", async () => {
    const us = await forumCouple();
    const [kept, dropped] = [await forumCouple(), await forumCouple()];
    const both = `@${kept.name} and @${dropped.name}`;
    const post = (await forum.create(postBody({ body: both, mentions: [kept.coupleId, dropped.coupleId] }), us.a.headers)).json.data;
    const reply = (await forum.reply(post.id, { body: both, mentions: [kept.coupleId, dropped.coupleId] }, us.a.headers)).json.data;
    expect(post.mentions).toHaveLength(2);
    expect(reply.mentions).toHaveLength(2);
    const edited = await forum.patch(post.id, { body: `Only @${kept.name}` }, us.a.headers);
    const editedReply = await forum.patchReply(reply.id, { body: `Only @${kept.name} now` }, us.a.headers);
    expect(edited.json.data.mentions.map((m: { coupleId: string }) => m.coupleId)).toEqual([kept.coupleId]);
    expect(editedReply.json.data.mentions.map((m: { coupleId: string }) => m.coupleId)).toEqual([kept.coupleId]);
    const db = await getDb();
    const stored = await db
      .select({ coupleId: forumMentions.mentionedCoupleId })
      .from(forumMentions)
      .where(eq(forumMentions.postId, post.id));
    expect(stored.map((row) => row.coupleId)).toEqual([kept.coupleId, kept.coupleId]);
  });

  it("never tells a couple that may not read the mention: blocked by the post's couple, or the post or reply hidden by reports", async () => {
    const poster = await forumCouple();
    const replier = await forumCouple();
    const blocked = await forumCouple();
    const db = await getDb();
    await db.insert(coupleBlocks).values({ blockerCoupleId: poster.coupleId, blockedCoupleId: blocked.coupleId });
    const post = (await forum.create(postBody(), poster.a.headers)).json.data;
    const reply = await forum.reply(post.id, mentioning(blocked), replier.a.headers);
    expect(reply.status).toBe(201);
    expect(reply.json.data.mentions).toEqual([]);
    const none = { notifications: 0, mails: 0 };
    expect(await told(blocked, post.id)).toEqual([none, none]);

    // A post hidden by reports is there for its own couple only: its mentions tell nobody else.
    const other = await forumCouple();
    await db.update(forumPosts).set({ hiddenAt: new Date() }).where(eq(forumPosts.id, post.id));
    expect((await forum.reply(post.id, mentioning(other), poster.a.headers)).status).toBe(201);
    expect((await forum.patch(post.id, mentioning(other), poster.a.headers)).status).toBe(200);
    expect(await told(other, post.id)).toEqual([none, none]);

    // So is a reply hidden by reports: its edit tells nobody it names.
    const open = (await forum.create(postBody(), poster.a.headers)).json.data;
    const hidden = (await forum.reply(open.id, { body: "Any tips?" }, replier.a.headers)).json.data;
    await db.update(forumReplies).set({ hiddenAt: new Date() }).where(eq(forumReplies.id, hidden.id));
    expect((await forum.patchReply(hidden.id, mentioning(other), replier.a.headers)).status).toBe(200);
    expect(await told(other, open.id)).toEqual([none, none]);
  });
});
