import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import type postgres from "postgres";
import { describe, expect, it } from "vitest";
import { getDb, type Db } from "@/db/client";
import * as schema from "@/db/schema";
import { acceptHellosAnswered } from "@/lib/connections/service";
import { messagingCouple } from "../support/messages";
import { onPostgres } from "../support/test-database";

/**
 * What the sweep of answered hellos (after 'Both of us approve new connections' is turned off, or a
 * partner's account deleted) reads and tries: the hellos still open, never every hello one partner
 * accepted and the other let expire (they stay 'pending' once expired). A file of its own: the
 * statements are of this file's hellos alone.
 */

const EXPIRED = 200;

describe("the sweep of hellos one partner accepted", () => {
  it.skipIf(!onPostgres())("tries only the hellos still open, however many expired waiting for the other partner", async () => {
    const db = await getDb();
    const [sender, asked] = [await messagingCouple(), await messagingCouple({ bothApprove: true })];
    await db.execute(sql`with sent as (
        insert into connection_requests (from_couple_id, to_couple_id, note, created_at, expires_at)
        select ${sender.coupleId}::uuid, ${asked.coupleId}::uuid, 'Hello', now() - interval '40 days' - g * interval '1 hour',
          now() - interval '10 days' - g * interval '1 hour'
        from generate_series(1, ${EXPIRED}) g returning id)
      insert into connection_approvals (request_id, user_id, accepted) select id, ${asked.a.userId}::uuid, true from sent`);
    await db.update(schema.couples).set({ bothApproveConnections: false }).where(eq(schema.couples.id, asked.coupleId));

    const client = (db as unknown as { $client: postgres.Sql }).$client;
    const logged: string[] = [];
    const logging = drizzle(client, { schema, logger: { logQuery: (query) => void logged.push(query) } });
    await acceptHellosAnswered(logging as unknown as Db, asked.coupleId);
    // A few reads, not a transaction per expired hello.
    expect(logged.length).toBeLessThan(10);
    const [still] = await db
      .select({ pending: sql<number>`count(*)::int` })
      .from(schema.connectionRequests)
      .where(eq(schema.connectionRequests.toCoupleId, asked.coupleId));
    expect(still!.pending).toBe(EXPIRED);
  });
});
