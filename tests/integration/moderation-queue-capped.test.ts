import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import type postgres from "postgres";
import { describe, expect, it } from "vitest";
import { getDb, type Db } from "@/db/client";
import { resultRows } from "@/db/result-rows";
import * as schema from "@/db/schema";
import { openReports } from "@/lib/safety/reports";
import { countText, QUEUE_COUNT_CAP, reportedByText } from "@/lib/safety/rules";
import { coupleRecord } from "@/lib/safety/couple-record";
import { couplesWithHeldHellos } from "@/lib/safety/spam";
import { rowsRead, type PlanNode } from "../support/query-plan";
import { coupleRecordOf, moderation, moderatorCouple, people } from "../support/moderation";

/**
 * The moderation queue's counts are exact up to QUEUE_COUNT_CAP and read '100+' beyond
 * (lib/safety/rules.ts): a row reads at most CAP + 1 of its target's reports, however many a burst
 * filed; the held hellos' rows and a couple's record (its reports, the blocks it received) count the same way. A file of its own: the plans are of this file's
 * reports alone.
 */

const CAP = QUEUE_COUNT_CAP;
const OVER = CAP * 12;

type Row = {
  id: string;
  targetId: string;
  reports: number;
  couples: number;
  capped: boolean;
  notesTotal: number;
  reporter: { firstName: string };
};
type Reason = { reason: string; count: number };

describe("the moderation queue's counts, bounded", () => {
  it("says '100+' of a target reported more than the cap, reading CAP + 1 of its reports; below the cap every count is exact", async () => {
    const db = await getDb();
    const tag = `mqc${Date.now()}`;
    await people(tag, OVER);
    const target = (name: string) => sql`md5(${tag} || ${name})::uuid`;
    // The burst: OVER reports of one post, person g of couple (g + 1) / 2 (two reports a couple),
    // every third harassment, every tenth with a note.
    await db.execute(sql`insert into reports (reporter_user_id, reporter_couple_id, target_type, target_id, reason, note, created_at)
      select md5(${tag} || 'u' || g)::uuid, md5(${tag} || 'c' || ((g + 1) / 2))::uuid, 'post', ${target("burst")},
        (case when g % 3 = 0 then 'harassment' else 'spam' end)::report_reason, case when g % 10 = 0 then 'Note ' || g end,
        timestamptz '2019-01-01' + g * interval '1 second'
      from generate_series(1, ${OVER}) g`);
    // Exactly the cap: CAP reports of another post by CAP / 2 couples, counted exactly.
    await db.execute(sql`insert into reports (reporter_user_id, reporter_couple_id, target_type, target_id, reason, note, created_at)
      select md5(${tag} || 'u' || g)::uuid, md5(${tag} || 'c' || ((g + 1) / 2))::uuid, 'post', ${target("full")},
        (case when g % 4 = 0 then 'other' else 'inappropriate' end)::report_reason, case when g % 8 = 0 then 'Full ' || g end,
        timestamptz '2019-02-01' + g * interval '1 second'
      from generate_series(1, ${CAP}) g`);
    // A few: three couples, three reports.
    await db.execute(sql`insert into reports (reporter_user_id, reporter_couple_id, target_type, target_id, reason, created_at)
      select md5(${tag} || 'u' || g)::uuid, md5(${tag} || 'c' || g)::uuid, 'post', ${target("few")}, 'spam',
        timestamptz '2019-03-01' + g * interval '1 second'
      from generate_series(1, 3) g`);
    // Reports decided before, of many targets, so the table is a real network's (a target has a few
    // reports on average) and the plans are those the queue gets there.
    await db.execute(sql`insert into reports (reporter_user_id, reporter_couple_id, target_type, target_id, reason, status, created_at)
      select md5(${tag} || 'u1')::uuid, md5(${tag} || 'c1')::uuid, 'message', md5(${tag} || 'm' || g)::uuid, 'other', 'dismissed',
        timestamptz '2018-01-01' + g * interval '1 minute'
      from generate_series(1, 20000) g`);
    await db.execute(sql`vacuum analyze reports`);
    const [ids] = resultRows<{ burst: string; full: string; few: string }>(
      await db.execute(sql`select ${target("burst")} as burst, ${target("full")} as full, ${target("few")} as few`),
    );

    const { headers } = await moderatorCouple();
    const page = await moderation.queue(headers);
    expect(page.status).toBe(200);
    const rowOf = (targetId: string) => (page.json.data as (Row & { reasons: Reason[] })[]).find((row) => row.targetId === targetId)!;

    // Past the cap: each count at most the cap, and at least what it says. Of the oldest CAP + 1
    // reports read, two a couple: 51 couples, a lower bound of all its couples (600).
    const burst = rowOf(ids!.burst);
    expect(burst).toMatchObject({ reports: CAP, couples: (CAP + 2) / 2, capped: true, notesTotal: Math.floor((CAP + 1) / 10) });
    expect(burst.reasons).toEqual([
      { reason: "spam", count: CAP + 1 - Math.floor((CAP + 1) / 3) },
      { reason: "harassment", count: Math.floor((CAP + 1) / 3) },
    ]);
    expect(reportedByText({ ...burst, firstReporter: burst.reporter.firstName })).toBe("100+ reports by 51+ couples, first by Reporter1");
    expect(countText(burst.reasons[0]!.count, burst.capped)).toBe("68+");

    // At the cap and below: exact, and said so.
    const full = rowOf(ids!.full);
    expect(full).toMatchObject({ reports: CAP, couples: CAP / 2, capped: false, notesTotal: Math.floor(CAP / 8) });
    expect(full.reasons).toEqual([
      { reason: "inappropriate", count: CAP - CAP / 4 },
      { reason: "other", count: CAP / 4 },
    ]);
    expect(reportedByText({ ...full, firstReporter: full.reporter.firstName })).toBe("100 reports by 50 couples, first by Reporter1");
    expect(rowOf(ids!.few)).toMatchObject({ reports: 3, couples: 3, capped: false, reasons: [{ reason: "spam", count: 3 }] });

    // The counts' read: at most CAP + 1 reports of each row (the burst's 1,200 never all), by reports_open_target_idx.
    const client = (db as unknown as { $client: postgres.Sql }).$client;
    const logged: { query: string; params: unknown[] }[] = [];
    const logging = drizzle(client, { schema, logger: { logQuery: (query, params) => void logged.push({ query, params }) } });
    expect((await openReports(logging as unknown as Db, { coupleId: null })).data).toHaveLength(3);
    const counts = logged.find(({ query }) => query.includes('"counted"'))!;
    const [row] = await client.unsafe(`explain (analyze, format json) ${counts.query}`, counts.params as never[]);
    const plan = (row!["QUERY PLAN"] as { Plan: PlanNode }[])[0]!.Plan;
    expect(JSON.stringify(plan)).toContain('"Index Name":"reports_open_target_idx"');
    expect(rowsRead(plan, (node) => node.Alias === "reports")).toBeLessThanOrEqual(CAP + 1 + CAP + 3);
  });

  it("says '100+ held' of a couple with more held hellos than the cap, and the exact number below it", async () => {
    const db = await getDb();
    const tag = `mhc${Date.now()}`;
    await people(tag, 3);
    await db.execute(sql`insert into held_requests (from_couple_id, to_couple_id, note, created_at)
      select md5(${tag} || 'c1')::uuid, md5(${tag} || 'c3')::uuid, 'Join our club ' || g, timestamptz '2019-01-01' + g * interval '1 second'
      from generate_series(1, ${OVER}) g`);
    await db.execute(sql`insert into held_requests (from_couple_id, to_couple_id, note, created_at)
      select md5(${tag} || 'c2')::uuid, md5(${tag} || 'c3')::uuid, 'Hello ' || g, timestamptz '2019-02-01' + g * interval '1 second'
      from generate_series(1, 7) g`);
    const { headers } = await moderatorCouple();
    const page = await moderation.held(headers);
    expect(page.status).toBe(200);
    const rows = (page.json.data as { coupleName: string; held: number; capped: boolean }[]).filter((row) =>
      ["Couple 1", "Couple 2"].includes(row.coupleName),
    );
    expect(rows).toMatchObject([
      { coupleName: "Couple 1", held: CAP, capped: true },
      { coupleName: "Couple 2", held: 7, capped: false },
    ]);
    expect(rows.map((row) => countText(row.held, row.capped))).toEqual(["100+", "7"]);

    // The count's read: at most CAP + 1 of a couple's held hellos, not its 1,200.
    const client = (db as unknown as { $client: postgres.Sql }).$client;
    const logged: { query: string; params: unknown[] }[] = [];
    const logging = drizzle(client, { schema, logger: { logQuery: (query, params) => void logged.push({ query, params }) } });
    await couplesWithHeldHellos(logging as unknown as Db, { coupleId: null });
    const [row] = await client.unsafe(`explain (analyze, format json) ${logged[0]!.query}`, logged[0]!.params as never[]);
    const plan = (row!["QUERY PLAN"] as { Plan: PlanNode }[])[0]!.Plan;
    expect(rowsRead(plan, (node) => node.Alias === "counted_held")).toBeLessThanOrEqual(CAP + 1 + 7);
  });

  it("says '100+' on the record of a couple reported more than the cap, reading CAP + 1 of the reports against it", async () => {
    const db = await getDb();
    const tag = `mrc${Date.now()}`;
    const REPORTED = 150;
    // A burst of REPORTED reports for spam, each by a couple of its own: the first 100 of the couple, the last 50 of its post.
    const { couple } = await moderatorCouple();
    const subject = couple.coupleId;
    await people(tag, REPORTED);
    const post = sql`md5(${tag} || 'p')::uuid`;
    await db.execute(sql`insert into forum_posts (id, author_user_id, couple_id, scope, topic, title, body)
      values (${post}, ${couple.a.userId}, ${subject}, 'global', 'travel', 'Buy', 'Buy my stuff')`);
    await db.execute(sql`insert into reports (reporter_user_id, reporter_couple_id, target_type, target_id, reason, created_at)
      select md5(${tag} || 'u' || g)::uuid, md5(${tag} || 'c' || g)::uuid,
        (case when g <= 100 then 'couple' else 'post' end)::report_target_type, case when g <= 100 then ${subject} else ${post} end,
        'spam', timestamptz '2019-01-01' + g * interval '1 second'
      from generate_series(1, ${REPORTED}) g`);
    // Reports of other targets, so the plan is a real network's (scanning the table costs more than the couple's entries).
    await db.execute(sql`insert into reports (reporter_user_id, reporter_couple_id, target_type, target_id, reason, status, created_at)
      select md5(${tag} || 'u1')::uuid, md5(${tag} || 'c1')::uuid, 'message', md5(${tag} || 'm' || g)::uuid, 'other', 'dismissed',
        timestamptz '2018-01-01' + g * interval '1 minute'
      from generate_series(1, 20000) g`);
    await db.execute(sql`vacuum analyze reports`);

    const { headers } = await moderatorCouple();
    const record = await coupleRecordOf(subject, headers);
    expect(record.status).toBe(200);
    // Counted among CAP + 1 of its reports, each by a couple of its own: the cap, and said so.
    const rows = record.json.data.reports as { reason: string; reports: number; couples: number; capped: boolean }[];
    expect(rows).toEqual([{ reason: "spam", reports: CAP, couples: CAP, capped: true }]);
    expect(rows.map((row) => `${countText(row.reports, row.capped)} by ${countText(row.couples, row.capped)}`)).toEqual(["100+ by 100+"]);

    // The count's read: at most CAP + 1 of the reports against it, not its 150.
    const client = (db as unknown as { $client: postgres.Sql }).$client;
    const logged: { query: string; params: unknown[] }[] = [];
    const logging = drizzle(client, { schema, logger: { logQuery: (query, params) => void logged.push({ query, params }) } });
    await coupleRecord(logging as unknown as Db, subject, { coupleId: null });
    const counts = logged.find(({ query }) => query.includes("from reports r"))!;
    const [row] = await client.unsafe(`explain (analyze, format json) ${counts.query}`, counts.params as never[]);
    const plan = (row!["QUERY PLAN"] as { Plan: PlanNode }[])[0]!.Plan;
    expect(JSON.stringify(plan)).toContain('"Index Name":"reports_target_idx"');
    expect(rowsRead(plan, (node) => node.Alias === "r")).toBeLessThanOrEqual(CAP + 1);
  });

  it("says '100+' blocks received by a couple more couples blocked than the cap, reading CAP + 1 of them; fewer, the exact number", async () => {
    const db = await getDb();
    const tag = `mbc${Date.now()}`;
    const BLOCKERS = 150;
    const { couple: many } = await moderatorCouple();
    const { couple: few } = await moderatorCouple();
    await people(tag, BLOCKERS);
    await db.execute(sql`insert into couple_blocks (blocker_couple_id, blocked_couple_id)
      select md5(${tag} || 'c' || g)::uuid, ${many.coupleId}::uuid from generate_series(1, ${BLOCKERS}) g`);
    await db.execute(sql`insert into couple_blocks (blocker_couple_id, blocked_couple_id)
      select md5(${tag} || 'c' || g)::uuid, ${few.coupleId}::uuid from generate_series(1, 7) g`);
    // Blocks between other couples, so the plan is a real network's (a couple has a few blocks on average).
    await db.execute(sql`insert into couple_blocks (blocker_couple_id, blocked_couple_id)
      select md5(${tag} || 'c' || g)::uuid, md5(${tag} || 'c' || h)::uuid
      from generate_series(1, ${BLOCKERS}) g, generate_series(1, ${BLOCKERS}) h where h > g and h <= g + 40`);
    await db.execute(sql`vacuum analyze couple_blocks`);

    const { headers } = await moderatorCouple();
    const blocksOf = async (coupleId: string) => {
      const record = await coupleRecordOf(coupleId, headers);
      expect(record.status).toBe(200);
      return record.json.data.blocksReceived as { count: number; capped: boolean };
    };
    const capped = await blocksOf(many.coupleId);
    expect(capped).toEqual({ count: CAP, capped: true });
    expect(countText(capped.count, capped.capped)).toBe("100+");
    const exact = await blocksOf(few.coupleId);
    expect(exact).toEqual({ count: 7, capped: false });
    expect(countText(exact.count, exact.capped)).toBe("7");

    // The count's read: at most CAP + 1 of the blocks it received, not its 150, by couple_blocks_blocked_idx.
    const client = (db as unknown as { $client: postgres.Sql }).$client;
    const logged: { query: string; params: unknown[] }[] = [];
    const logging = drizzle(client, { schema, logger: { logQuery: (query, params) => void logged.push({ query, params }) } });
    await coupleRecord(logging as unknown as Db, many.coupleId, { coupleId: null });
    const counts = logged.find(({ query }) => query.includes("from couple_blocks"))!;
    const [row] = await client.unsafe(`explain (analyze, format json) ${counts.query}`, counts.params as never[]);
    const plan = (row!["QUERY PLAN"] as { Plan: PlanNode }[])[0]!.Plan;
    expect(JSON.stringify(plan)).toContain('"Index Name":"couple_blocks_blocked_idx"');
    expect(rowsRead(plan, (node) => node.Alias === "couple_blocks")).toBeLessThanOrEqual(CAP + 1);
  });
});
