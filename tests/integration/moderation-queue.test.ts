import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { resultRows } from "@/db/result-rows";
import { reports } from "@/db/schema";
import { APPEALS_PAGE_SIZE, HELD_QUEUE_PAGE_SIZE, REPORT_NOTES_SHOWN, REPORT_QUEUE_PAGE_SIZE } from "@/lib/safety/rules";
import type { Headers } from "../support/forum";
import { forum, forumCouple, postBody } from "../support/forum";
import { messagingCouple } from "../support/messages";
import { appeals, moderation, moderatorCouple, people } from "../support/moderation";

/** Every row of a queue, page after page through its cursor; the pages' sizes too. */
async function readAll<T>(read: (cursor?: string) => ReturnType<typeof moderation.queue>) {
  const rows: T[] = [];
  const sizes: number[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    expect(page.status).toBe(200);
    rows.push(...page.json.data);
    sizes.push(page.json.data.length);
    cursor = page.json.pagination.hasMore ? page.json.pagination.nextCursor : undefined;
  } while (cursor);
  return { rows, sizes };
}

type Row = { id: string; targetId: string; createdAt: string; reports: number };

const reportsOf = async (targetType: "post" | "couple", targetId: string) => {
  const db = await getDb();
  return db
    .select({ status: reports.status })
    .from(reports)
    .where(and(eq(reports.targetType, targetType), eq(reports.targetId, targetId)));
};

describe("the moderation queue, one row per reported target", () => {
  it("shows a target reported by many couples once, with its reports, couples, reasons and first notes; acting on it closes them all", async () => {
    // A couple: reports never hide it, so any number of couples may report it.
    const target = await messagingCouple();
    const reporters = await Promise.all(Array.from({ length: 7 }, () => messagingCouple()));
    const filed: string[] = [];
    for (const [i, couple] of reporters.entries()) {
      const reason = i < 4 ? "spam" : i < 6 ? "harassment" : "other";
      for (const person of i < 3 ? [couple.a, couple.b] : [couple.a]) {
        const body = { targetType: "couple", targetId: target.coupleId, reason, note: `Note ${filed.length + 1}` };
        const res = await moderation.report(body, person.headers);
        expect(res.status).toBe(201);
        filed.push(res.json.data.id);
      }
    }
    const { headers } = await moderatorCouple();
    const rows = (await moderation.queue(headers)).json.data.filter((row: Row) => row.targetId === target.coupleId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: filed[0],
      targetType: "couple",
      reports: 10,
      couples: 7,
      reasons: [
        { reason: "spam", count: 7 },
        { reason: "harassment", count: 2 },
        { reason: "other", count: 1 },
      ],
      notesTotal: 10,
      content: { coupleId: target.coupleId },
    });
    expect(rows[0].notes.map((note: { note: string }) => note.note)).toEqual(
      Array.from({ length: REPORT_NOTES_SHOWN }, (_, i) => `Note ${i + 1}`),
    );

    // Dismissed from its row: every one of its reports closed, and the row gone.
    expect((await moderation.resolve(rows[0].id, "dismiss", headers)).status).toBe(200);
    expect((await reportsOf("couple", target.coupleId)).map((report) => report.status)).toEqual(Array(10).fill("dismissed"));
    expect((await moderation.queue(headers)).json.data.filter((row: Row) => row.targetId === target.coupleId)).toEqual([]);
  });

  it("names a row's first reporter by first name only: neither their account nor their couple reaches the moderator", async () => {
    const target = await messagingCouple();
    const reporter = await messagingCouple();
    const body = { targetType: "couple", targetId: target.coupleId, reason: "spam" };
    expect((await moderation.report(body, reporter.a.headers)).status).toBe(201);
    const { headers } = await moderatorCouple();
    const [row] = (await moderation.queue(headers)).json.data.filter((found: Row) => found.targetId === target.coupleId);
    expect(row.reporter).toEqual({ firstName: expect.any(String) });
    expect(JSON.stringify(row)).not.toContain(reporter.a.userId);
    expect(JSON.stringify(row)).not.toContain(reporter.coupleId);
  });

  it("leaves a target the moderator's own couple reported to another moderator, however many others reported it", async () => {
    const { couple: own, headers: moderator } = await moderatorCouple();
    const author = await forumCouple();
    const post = (await forum.create(postBody(), author.a.headers)).json.data;
    const others = await Promise.all(Array.from({ length: 2 }, () => messagingCouple()));
    const report = (headers: Headers) => moderation.report({ targetType: "post", targetId: post.id, reason: "spam" }, headers);
    const first = (await report(others[0]!.a.headers)).json.data.id;
    expect((await report(own.b.headers)).status).toBe(201);
    expect((await report(others[1]!.a.headers)).status).toBe(201);

    expect((await moderation.queue(moderator)).json.data.filter((row: Row) => row.targetId === post.id)).toEqual([]);
    const refused = await moderation.resolve(first, "remove", moderator);
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toBe("You cannot act on your own couple. Another moderator will.");
    expect((await reportsOf("post", post.id)).every((row) => row.status === "open")).toBe(true);

    const { headers: other } = await moderatorCouple();
    expect((await moderation.queue(other)).json.data.filter((row: Row) => row.targetId === post.id)).toMatchObject([
      { id: first, reports: 3 },
    ]);
    expect((await moderation.resolve(first, "remove", other)).status).toBe(200);
    expect((await reportsOf("post", post.id)).map((row) => row.status)).toEqual(Array(3).fill("removed"));
  });

  it("leaves the reports against a couple the moderator's own couple reported, of any of its targets, to another moderator", async () => {
    const { couple: own, headers: moderator } = await moderatorCouple();
    const author = await forumCouple();
    const reported = (await forum.create(postBody(), author.a.headers)).json.data;
    const another = (await forum.create(postBody(), author.a.headers)).json.data;
    const other = await messagingCouple();
    // The moderator's partner reports one post; another couple reports the couple's other post.
    expect((await moderation.report({ targetType: "post", targetId: reported.id, reason: "spam" }, own.b.headers)).status).toBe(201);
    const filed = (await moderation.report({ targetType: "post", targetId: another.id, reason: "spam" }, other.a.headers)).json.data.id;

    expect((await moderation.queue(moderator)).json.data.filter((row: Row) => row.targetId === another.id)).toEqual([]);
    expect((await moderation.resolve(filed, "remove", moderator)).status).toBe(403);
    const { headers: otherModerator } = await moderatorCouple();
    expect((await moderation.queue(otherModerator)).json.data.filter((row: Row) => row.targetId === another.id)).toMatchObject([
      { id: filed },
    ]);
  });

  it("reaches every target through the cursor, each once, oldest first, past targets reported many times", async () => {
    const author = await forumCouple();
    const tag = `mq${Date.now()}`;
    const targets = 2 * REPORT_QUEUE_PAGE_SIZE + 5;
    await people(tag, 60);
    const db = await getDb();
    await db.execute(sql`insert into forum_posts (id, author_user_id, couple_id, scope, topic, title, body)
      select md5(${tag} || 'p' || g)::uuid, ${author.a.userId}, ${author.coupleId}, 'global', 'travel', 'Post ' || g, 'Words'
      from generate_series(1, ${targets}) g`);
    // Post g first reported at a whole second shared by two posts (ties broken by id), the first
    // ten then reported again by up to 60 couples, later than every first report.
    await db.execute(sql`insert into reports (reporter_user_id, reporter_couple_id, target_type, target_id, reason, created_at)
      select md5(${tag} || 'u' || 1)::uuid, md5(${tag} || 'c' || 1)::uuid, 'post', md5(${tag} || 'p' || g)::uuid, 'spam',
        timestamptz '2020-01-01' + (g / 2) * interval '1 second'
      from generate_series(1, ${targets}) g`);
    await db.execute(sql`insert into reports (reporter_user_id, reporter_couple_id, target_type, target_id, reason, created_at)
      select md5(${tag} || 'u' || r)::uuid, md5(${tag} || 'c' || r)::uuid, 'post', md5(${tag} || 'p' || g)::uuid, 'harassment',
        timestamptz '2020-01-02' + r * interval '1 second'
      from generate_series(1, 10) g, generate_series(2, 60) r`);
    const { headers } = await moderatorCouple();

    const { rows, sizes } = await readAll<Row & { content: { coupleId: string } }>((cursor) => moderation.queue(headers, cursor));
    expect(sizes.length).toBeGreaterThanOrEqual(3);
    expect(sizes.slice(0, -1).every((size) => size === REPORT_QUEUE_PAGE_SIZE)).toBe(true);
    // Oldest first by the first report (ties by id), each row once; this author's posts all there, once each.
    const keys = rows.map((row) => `${row.createdAt} ${row.id}`);
    expect(keys).toEqual([...keys].sort());
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
    const posts = rows.filter((row) => row.content.coupleId === author.coupleId);
    expect(new Set(posts.map((row) => row.targetId)).size).toBe(targets);
    expect(posts).toHaveLength(targets);
    expect(posts.filter((row) => row.reports === 60)).toHaveLength(10);
  });

  it("refuses a cursor it did not make (400), and is the moderators' only", async () => {
    const { headers } = await moderatorCouple();
    const forged = await moderation.queue(headers, "eyJ4Ijp0cnVlfQ.AAAAAAAAAAAAAAAAAAAAAA");
    expect(forged.status).toBe(400);
    expect(forged.json.error.code).toBe("VALIDATION_ERROR");
    const member = await forumCouple();
    expect((await moderation.queue(member.a.headers as Headers)).status).toBe(403);
  });
});

describe("the open appeals, a page at a time", () => {
  it("reaches every appeal through the cursor, each once, oldest first; the moderator's own couple's never", async () => {
    const couple = await messagingCouple();
    const { couple: own, headers } = await moderatorCouple();
    const count = APPEALS_PAGE_SIZE + 7;
    const db = await getDb();
    for (const [who, n] of [
      [couple, count],
      [own, 3],
    ] as const)
      await db.execute(sql`with acted as (
          insert into couple_sanctions (couple_id, kind, reason) select ${who.coupleId}, 'warn', 'spam' from generate_series(1, ${n}) returning id
        )
        insert into moderation_appeals (sanction_id, user_id, body, created_at)
        select id, ${who.a.userId}, 'Appeal', timestamptz '2020-01-01' + (row_number() over () / 3) * interval '1 second' from acted`);
    const { rows, sizes } = await readAll<{ id: string; createdAt: string; couple: { id: string } }>((cursor) =>
      appeals.open(headers, cursor),
    );
    expect(sizes).toEqual([APPEALS_PAGE_SIZE, 7]);
    expect(new Set(rows.map((row) => row.id)).size).toBe(count);
    expect(rows.every((row) => row.couple.id === couple.coupleId)).toBe(true);
    const keys = rows.map((row) => `${row.createdAt} ${row.id}`);
    expect(keys).toEqual([...keys].sort());
  });
});

describe("the couples with held hellos, a page at a time", () => {
  type HeldRow = { id: string; coupleId: string; coupleName: string; held: number; note: string; since: string };
  /** The id `people` gives couple `g` of `tag`. */
  const coupleId = (tag: string, g: number) =>
    createHash("md5")
      .update(`${tag}c${g}`)
      .digest("hex")
      .replace(/^(.{8})(.{4})(.{4})(.{4})/, "$1-$2-$3-$4-");
  const couple = (tag: string, g: number) => sql`${coupleId(tag, g)}::uuid`;

  it("reaches every couple through the cursor, each once, by its oldest held hello, past couples with many held", async () => {
    const tag = `mh${Date.now()}`;
    const senders = 2 * HELD_QUEUE_PAGE_SIZE + 5;
    await people(tag, senders + 10);
    const db = await getDb();
    // Couple g first held at a whole second shared by two couples (ties broken by the hello's id);
    // the first ten then held thirty times more, later than every first one.
    await db.execute(sql`insert into held_requests (from_couple_id, to_couple_id, note, created_at)
      select md5(${tag} || 'c' || g)::uuid, ${couple(tag, senders + 1)}, 'First hello ' || g, timestamptz '2020-01-01' + (g / 2) * interval '1 second'
      from generate_series(1, ${senders}) g`);
    await db.execute(sql`insert into held_requests (from_couple_id, to_couple_id, note, created_at)
      select md5(${tag} || 'c' || g)::uuid, md5(${tag} || 'c' || (${senders} + 1 + r % 10))::uuid, 'Again ' || r,
        timestamptz '2020-01-02' + r * interval '1 second'
      from generate_series(1, 10) g, generate_series(1, 30) r`);
    const { headers } = await moderatorCouple();

    const { rows, sizes } = await readAll<HeldRow>((cursor) => moderation.held(headers, cursor));
    expect(sizes.length).toBeGreaterThanOrEqual(3);
    expect(sizes.slice(0, -1).every((size) => size === HELD_QUEUE_PAGE_SIZE)).toBe(true);
    const keys = rows.map((row) => `${row.since} ${row.id}`);
    expect(keys).toEqual([...keys].sort());
    expect(new Set(rows.map((row) => row.coupleId)).size).toBe(rows.length);
    const ids = new Set(Array.from({ length: senders }, (_, i) => coupleId(tag, i + 1)));
    const ours = rows.filter((row) => ids.has(row.coupleId));
    expect(ours).toHaveLength(senders);
    // Each of the ten once, with all its held counted and its oldest hello's note.
    const many = ours.filter((row) => row.held === 31).map((row) => row.note);
    expect(many.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `First hello ${i + 1}`).sort());
    expect(ours.filter((row) => row.held === 1)).toHaveLength(senders - 10);
  });

  it("never counts or shows the hellos held for the reader's own couple; another moderator reads them", async () => {
    const tag = `mo${Date.now()}`;
    await people(tag, 3);
    const { couple: own, headers } = await moderatorCouple();
    const { headers: other } = await moderatorCouple();
    const db = await getDb();
    // Couple 1 held only for the moderator's couple; couple 2 first for it, then for couple 3.
    await db.execute(sql`insert into held_requests (from_couple_id, to_couple_id, note, created_at) values
      (${couple(tag, 1)}, ${own.coupleId}, 'Only to you', timestamptz '2019-12-01'),
      (${couple(tag, 2)}, ${own.coupleId}, 'To you first', timestamptz '2019-12-02'),
      (${couple(tag, 2)}, ${couple(tag, 3)}, 'Then to them', timestamptz '2019-12-03')`);
    const senders = [1, 2].map((g) => coupleId(tag, g));
    const theirs = async (h: Headers) =>
      (await readAll<HeldRow>((cursor) => moderation.held(h, cursor))).rows.filter((row) => senders.includes(row.coupleId));

    expect(await theirs(headers)).toMatchObject([
      { coupleName: "Couple 2", held: 1, note: "Then to them", since: "2019-12-03T00:00:00.000Z" },
    ]);
    expect(await theirs(other)).toMatchObject([
      { coupleName: "Couple 1", held: 1, note: "Only to you", since: "2019-12-01T00:00:00.000Z" },
      { coupleName: "Couple 2", held: 2, note: "To you first", since: "2019-12-02T00:00:00.000Z" },
    ]);
  });

  it("drops a couple once its held hellos are all decided; one with some left is placed by the oldest left", async () => {
    const tag = `md${Date.now()}`;
    await people(tag, 3);
    const { headers } = await moderatorCouple();
    const db = await getDb();
    const held = await db.execute(sql`insert into held_requests (from_couple_id, to_couple_id, note, created_at) values
      (${couple(tag, 1)}, ${couple(tag, 3)}, 'One only', timestamptz '2019-11-01'),
      (${couple(tag, 2)}, ${couple(tag, 3)}, 'Two first', timestamptz '2019-11-02'),
      (${couple(tag, 2)}, ${couple(tag, 1)}, 'Two then', timestamptz '2019-11-03') returning id, note`);
    const idOf = (note: string) => resultRows<{ id: string; note: string }>(held).find((row) => row.note === note)!.id;
    const theirs = async () =>
      (await readAll<HeldRow>((cursor) => moderation.held(headers, cursor))).rows.filter((row) =>
        [1, 2].some((g) => row.coupleId === coupleId(tag, g)),
      );
    expect((await theirs()).map((row) => row.note)).toEqual(["One only", "Two first"]);

    expect((await moderation.decideHeld(idOf("One only"), "drop", headers)).status).toBe(200);
    expect((await moderation.decideHeld(idOf("Two first"), "drop", headers)).status).toBe(200);
    expect(await theirs()).toMatchObject([{ coupleId: coupleId(tag, 2), held: 1, note: "Two then", since: "2019-11-03T00:00:00.000Z" }]);
  });

  it("refuses a cursor it did not make (400), and is the moderators' only", async () => {
    const { headers } = await moderatorCouple();
    const forged = await moderation.held(headers, "eyJ4Ijp0cnVlfQ.AAAAAAAAAAAAAAAAAAAAAA");
    expect(forged.status).toBe(400);
    expect(forged.json.error.code).toBe("VALIDATION_ERROR");
    const member = await forumCouple();
    expect((await moderation.held(member.a.headers as Headers)).status).toBe(403);
  });
});
