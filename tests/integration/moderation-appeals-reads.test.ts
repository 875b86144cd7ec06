import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import type postgres from "postgres";
import { describe, expect, it } from "vitest";
import { getDb, type Db } from "@/db/client";
import { resultRows } from "@/db/result-rows";
import * as schema from "@/db/schema";
import { openAppeals } from "@/lib/safety/appeals";
import { APPEALS_PAGE_SIZE } from "@/lib/safety/rules";
import { people } from "../support/moderation";
import { rowsRead, type PlanNode } from "../support/query-plan";

/**
 * What the appeals queue reads for a moderator whose couple reported a couple (lib/safety/appeals.ts
 * `openAppeals`, `mayDecideFor`): the page's actions by their key, never every action taken. A
 * file of its own: the plan is of this file's actions alone.
 */

const APPEALED = 5_000;

describe("the appeals queue of a moderator whose couple reported a couple", () => {
  it("leaves out that couple's appeal and reads only the page's actions", async () => {
    const db = await getDb();
    const tag = `mar${Date.now()}`;
    // Couple 1 is the moderator's and reported couple 2; couple 2's appeal is the oldest, then one of each of APPEALED others.
    await people(tag, APPEALED + 2);
    const couple = (n: number) => sql`md5(${tag} || 'c' || ${n})::uuid`;
    await db.execute(sql`insert into couple_sanctions (id, couple_id, kind, reason, created_at)
      select md5(${tag} || 's' || g)::uuid, md5(${tag} || 'c' || (g + 2))::uuid, 'suspend', 'harassment',
        timestamptz '2019-01-01'
      from generate_series(0, ${APPEALED}) g`);
    await db.execute(sql`insert into moderation_appeals (sanction_id, body, created_at)
      select md5(${tag} || 's' || g)::uuid, 'We did nothing wrong', timestamptz '2019-01-01' + g * interval '1 minute'
      from generate_series(0, ${APPEALED}) g`);
    await db.execute(sql`insert into reports (reporter_user_id, reporter_couple_id, target_type, target_id, reason)
      values (md5(${tag} || 'u1')::uuid, ${couple(1)}, 'couple', ${couple(2)}, 'harassment')`);
    await db.execute(sql`vacuum analyze couple_sanctions, moderation_appeals`);
    const [own, reported] = resultRows<{ id: string }>(await db.execute(sql`select ${couple(1)} as id union all select ${couple(2)}`));

    const couples = async (coupleId: string | null) => (await openAppeals(db, { coupleId })).data.map((row) => row.couple.id);
    expect((await couples(null))[0]).toBe(reported!.id);
    expect(await couples(own!.id)).not.toContain(reported!.id);

    // The page's actions, each by its key (the one left out too), not all APPEALED.
    const client = (db as unknown as { $client: postgres.Sql }).$client;
    const logged: { query: string; params: unknown[] }[] = [];
    const logging = drizzle(client, { schema, logger: { logQuery: (query, params) => void logged.push({ query, params }) } });
    await openAppeals(logging as unknown as Db, { coupleId: own!.id });
    const [row] = await client.unsafe(`explain (analyze, format json) ${logged[0]!.query}`, logged[0]!.params as never[]);
    const plan = (row!["QUERY PLAN"] as { Plan: PlanNode }[])[0]!.Plan;
    expect(rowsRead(plan, (node) => node["Relation Name"] === "couple_sanctions")).toBeLessThanOrEqual(2 * (APPEALS_PAGE_SIZE + 2));
  });
});
