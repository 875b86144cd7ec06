import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import type postgres from "postgres";
import { describe, expect, it } from "vitest";
import { getDb, type Db } from "@/db/client";
import * as schema from "@/db/schema";
import { awaitingAnswerCount, listRequests } from "@/lib/connections/queries";
import { connectionStates } from "@/lib/connections/states";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { messagingCouple } from "../support/messages";
import { rowsRead, type PlanNode } from "../support/query-plan";
import { onPostgres } from "../support/test-database";

/**
 * What the Messages badge and the inbox's requests read of a couple that lets hellos expire: the
 * hellos of the last 30 days, never every hello it left unanswered (they stay 'pending' once
 * expired). A file of its own: the plan is of this file's hellos alone.
 */

const EXPIRED = 3_000;

describe("the hellos waiting for an answer", () => {
  it.skipIf(!onPostgres())("are read from the last 30 days alone, however many expired unanswered before", async () => {
    const db = await getDb();
    const [sender, asked] = [await messagingCouple(), await messagingCouple()];
    await db.execute(sql`insert into connection_requests (from_couple_id, to_couple_id, note, created_at, expires_at)
      select ${sender.coupleId}::uuid, ${asked.coupleId}::uuid, 'Hello', now() - interval '31 days' - g * interval '1 hour',
        now() - interval '1 day' - g * interval '1 hour'
      from generate_series(1, ${EXPIRED}) g`);
    await db.execute(sql`vacuum analyze connection_requests`);

    const client = (db as unknown as { $client: postgres.Sql }).$client;
    /** The hellos the one statement `read` sends reads, as Postgres ran it. */
    async function hellosRead(read: (db: Db) => Promise<unknown>): Promise<number> {
      const logged: { query: string; params: unknown[] }[] = [];
      const logging = drizzle(client, { schema, logger: { logQuery: (query, params) => void logged.push({ query, params }) } });
      await read(logging as unknown as Db);
      const [row] = await client.unsafe(`explain (analyze, format json) ${logged[0]!.query}`, logged[0]!.params as never[]);
      const plan = (row!["QUERY PLAN"] as { Plan: PlanNode }[])[0]!.Plan;
      return rowsRead(plan, (node) => node["Relation Name"] === "connection_requests");
    }
    const member = { userId: asked.a.userId, coupleId: asked.coupleId };
    expect(await awaitingAnswerCount(db, member)).toBe(0);
    expect(await hellosRead((db) => awaitingAnswerCount(db, member)), "the Messages badge").toBeLessThan(10);
    // The inbox reads only its couple and partners of the acting couple.
    const acting = { ...member, partnerIds: [asked.a.userId, asked.b.userId] } as unknown as ActingCouple;
    expect(await listRequests(db, acting, "incoming")).toMatchObject({ data: [], total: 0 });
    expect(await hellosRead((db) => listRequests(db, acting, "incoming")), "the inbox's requests").toBeLessThan(10);
    // The cards' 'Say hello' either way: the asked couple's view of the sender, and the sender's of it.
    for (const [viewer, shown] of [
      [asked.coupleId, sender.coupleId],
      [sender.coupleId, asked.coupleId],
    ])
      expect(await hellosRead((db) => connectionStates(db, viewer!, [shown!])), "a card's state").toBeLessThan(10);
  });
});
