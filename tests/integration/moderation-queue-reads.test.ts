import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import type postgres from "postgres";
import { describe, expect, it } from "vitest";
import { getDb, type Db } from "@/db/client";
import { resultRows } from "@/db/result-rows";
import * as schema from "@/db/schema";
import { openReports } from "@/lib/safety/reports";
import { QUEUE_COUNT_CAP, REPORT_NOTES_SHOWN } from "@/lib/safety/rules";
import { people } from "../support/moderation";
import { planNodes, rowsRead, type PlanNode } from "../support/query-plan";

/**
 * What the moderation queue reads of a target reported many times (lib/safety/reports.ts
 * `openReports`): its row's test for an older report of the same decision and its first notes read
 * a few of the target's open reports by reports_open_target_idx, never all of them; for a moderator
 * whose couple reported a couple, the couple each report is against is read by its target's key,
 * never from all that couple wrote. A file of its own: the plans are of this file's reports alone.
 */

const REPORTED = 150;
const DECIDED = 20_000;

/** A database that records its statements, and the analyzed plan of the first recorded one `pick` names. */
function recording(db: Db) {
  const client = (db as unknown as { $client: postgres.Sql }).$client;
  const logged: { query: string; params: unknown[] }[] = [];
  const logging = drizzle(client, {
    schema,
    logger: { logQuery: (query, params) => void logged.push({ query, params }) },
  }) as unknown as Db;
  const plan = async (pick: (query: string) => boolean) => {
    const found = logged.find(({ query }) => pick(query))!;
    const [row] = await client.unsafe(`explain (analyze, format json) ${found.query}`, found.params as never[]);
    return (row!["QUERY PLAN"] as { Plan: PlanNode }[])[0]!.Plan;
  };
  return { logging, plan };
}

describe("the moderation queue's reads of a target reported many times", () => {
  it("finds its row and first notes by reading a few of its reports, with the same row, counts and notes", async () => {
    const db = await getDb();
    const tag = `mqr${Date.now()}`;
    await people(tag, REPORTED);
    // One post reported by every couple, a second apart, the oldest reports of the queue; notes from the 2nd to the 6th and every 50th.
    await db.execute(sql`insert into reports (reporter_user_id, reporter_couple_id, target_type, target_id, reason, note, created_at)
      select md5(${tag} || 'u' || g)::uuid, md5(${tag} || 'c' || g)::uuid, 'post', md5(${tag} || 'p')::uuid, 'spam',
        case when g between 2 and 6 or g % 50 = 0 then 'Note ' || g end, timestamptz '2019-01-01' + g * interval '1 second'
      from generate_series(1, ${REPORTED}) g`);
    // Reports decided before, so the table is a real network's (scanning it costs more than the
    // target's entries) and the queue is the target alone: one row, its reports walked once.
    await db.execute(sql`insert into reports (reporter_user_id, reporter_couple_id, target_type, target_id, reason, status, created_at)
      select md5(${tag} || 'u1')::uuid, md5(${tag} || 'c1')::uuid, 'message', md5(${tag} || 'm' || g)::uuid, 'other', 'dismissed',
        timestamptz '2018-01-01' + g * interval '1 minute'
      from generate_series(1, ${DECIDED}) g`);
    await db.execute(sql`vacuum analyze reports`);

    const { logging, plan } = recording(db);
    const page = await openReports(logging, { coupleId: null });
    expect(page.data).toHaveLength(1);
    const first = page.data[0]!;
    // Past QUEUE_COUNT_CAP, counted among the oldest CAP + 1: their notes are the 2nd to the 6th, the 50th and the 100th.
    expect(REPORTED).toBeGreaterThan(QUEUE_COUNT_CAP);
    expect(first).toMatchObject({ targetType: "post", reports: QUEUE_COUNT_CAP, couples: QUEUE_COUNT_CAP, capped: true, notesTotal: 7 });
    expect(first.notes.map((note) => note.note)).toEqual(Array.from({ length: REPORT_NOTES_SHOWN }, (_, i) => `Note ${i + 2}`));

    // The row's test: each report walked reads at most the one older report that rules it out (the
    // oldest reads none), bounded in the index by the walked report's place, not the target's 150.
    const queue = await plan((query) => query.includes('"older_report"'));
    const older = planNodes(queue).find((node) => node.Alias === "older_report")!;
    expect(older["Index Name"]).toBe("reports_open_target_idx");
    expect(older["Index Cond"]).toContain("ROW(created_at, id) < ROW(reports.created_at, reports.id)");
    // The first notes: the target's reports oldest first up to the REPORT_NOTES_SHOWN-th note, not all 150.
    const notes = await plan((query) => query.includes('"noted"'));
    expect(rowsRead(notes, (node) => node.Alias === "reports")).toBeLessThanOrEqual(REPORT_NOTES_SHOWN + 1);
  });
});

const MESSAGES = 2_000;

describe("the moderation queue of a moderator whose couple reported a couple", () => {
  it("leaves out the reports against it by reading the walked reports' targets, not every message the couple wrote", async () => {
    const db = await getDb();
    const tag = `mqc${Date.now()}`;
    // Couple 1 is the moderator's, couple 2 wrote MESSAGES messages to couple 3, couple 4 reports.
    await people(tag, 4);
    const couple = (n: number) => sql`md5(${tag} || 'c' || ${n})::uuid`;
    const message = (n: number) => sql`md5(${tag} || 'm' || ${n})::uuid`;
    await db.execute(sql`insert into conversations (id, couple_low_id, couple_high_id)
      values (md5(${tag} || 'v')::uuid, least(${couple(2)}, ${couple(3)}), greatest(${couple(2)}, ${couple(3)}))`);
    await db.execute(sql`insert into messages (id, conversation_id, author_user_id, author_couple_id, body)
      select md5(${tag} || 'm' || g)::uuid, md5(${tag} || 'v')::uuid, md5(${tag} || 'u2')::uuid, ${couple(2)}, 'Hello'
      from generate_series(1, ${MESSAGES}) g`);
    // One more whose author's couple is gone: its report names no couple, so no moderator is kept from it.
    await db.execute(sql`insert into messages (id, conversation_id, body) values (${message(0)}, md5(${tag} || 'v')::uuid, 'Hello')`);
    const report = (by: number, target: number) =>
      db.execute(sql`insert into reports (reporter_user_id, reporter_couple_id, target_type, target_id, reason)
        values (md5(${tag} || 'u' || ${by})::uuid, ${couple(by)}, 'message', ${message(target)}, 'spam') returning id`);
    await report(1, 1);
    await report(4, 2);
    await report(4, 0);
    await db.execute(sql`vacuum analyze messages`);
    const ids = async (coupleId: string | null) => (await openReports(db, { coupleId })).data.map((row) => row.targetId);
    const [own, second, gone] = resultRows<{ id: string }>(
      await db.execute(sql`select ${couple(1)} as id union all select ${message(2)} union all select ${message(0)}`),
    );

    // Couple 4's report of couple 2's message is another moderator's; of the message with no couple, theirs too.
    expect(await ids(own!.id)).not.toContain(second!.id);
    expect(await ids(own!.id)).toContain(gone!.id);
    expect(await ids(null)).toEqual(expect.arrayContaining([second!.id, gone!.id]));

    // Read for the walked reports' targets: a message each, not couple 2's MESSAGES.
    const { logging, plan } = recording(db);
    await openReports(logging, { coupleId: own!.id });
    const queue = await plan((query) => query.includes('"older_report"'));
    expect(rowsRead(queue, (node) => node["Relation Name"] === "messages")).toBeLessThanOrEqual(10);
  });
});
