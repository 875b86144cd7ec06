import { drizzle } from "drizzle-orm/postgres-js";
import type postgres from "postgres";
import { describe, expect, it } from "vitest";
import { getDb, type Db } from "@/db/client";
import * as schema from "@/db/schema";
import { connectionRequests } from "@/db/schema";
import { listRequests, REQUESTS_PAGE } from "@/lib/connections/queries";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { block, connections, messagingCouple } from "../support/messages";
import { wholeScans } from "../support/query-plan";
import { onPostgres } from "../support/test-database";

const DAY = 24 * 60 * 60 * 1000;
const SENDERS = REQUESTS_PAGE + 6;

/** The ids of a page of the API's answer. */
const idsOf = (page: { data: { id: string }[] }) => page.data.map((request) => request.id);

/**
 * The hellos a couple received, more than a page: each sent a minute apart, but four sent in the
 * same millisecond across the first page's end (the id orders them), one expired and one from a
 * couple they blocked (neither listed nor counted).
 */
async function receivedHellos() {
  const db = await getDb();
  const us = await messagingCouple();
  const senders = await Promise.all(Array.from({ length: SENDERS + 2 }, () => messagingCouple()));
  const start = Date.now() - DAY;
  const tie = REQUESTS_PAGE - 2;
  const rows = await db
    .insert(connectionRequests)
    .values(
      senders.map((sender, i) => {
        // Newest first: i = 0 is the newest; i in [tie, tie + 3] share one time.
        const at = i >= tie && i <= tie + 3 ? start - tie * 60_000 : start - i * 60_000;
        const sentAt = i === SENDERS ? new Date(Date.now() - 31 * DAY) : new Date(at);
        return {
          fromCoupleId: sender.coupleId,
          toCoupleId: us.coupleId,
          note: `Hello ${i}`,
          createdAt: sentAt,
          expiresAt: new Date(sentAt.getTime() + 30 * DAY),
        };
      }),
    )
    .returning({ id: connectionRequests.id, createdAt: connectionRequests.createdAt, expiresAt: connectionRequests.expiresAt });
  expect((await block(senders[SENDERS + 1]!.coupleId, us.a.headers)).status).toBe(200);
  const open = rows.slice(0, SENDERS);
  const newestFirst = [...open]
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
    .map((row) => row.id);
  return { us, senders, newestFirst };
}

describe("GET /api/connections?box=incoming pages", () => {
  it("reads every open hello once, newest first, in keyset pages with a signed cursor, and counts them all", async () => {
    const { us, senders, newestFirst } = await receivedHellos();
    const first = await connections.list("incoming", us.a.headers);
    expect(first.status).toBe(200);
    expect(first.json.total).toBe(SENDERS);
    expect(first.json.pagination).toMatchObject({ limit: REQUESTS_PAGE, hasMore: true, nextCursor: expect.any(String) });
    expect(idsOf(first.json)).toEqual(newestFirst.slice(0, REQUESTS_PAGE));
    const second = await connections.list("incoming", us.b.headers, first.json.pagination.nextCursor);
    expect(second.status).toBe(200);
    expect(second.json.pagination).toEqual({ limit: REQUESTS_PAGE, hasMore: false, nextCursor: null });
    expect(second.json.total).toBe(SENDERS);
    // No gap, no repeat across the page's end, where four hellos share one time.
    expect([...idsOf(first.json), ...idsOf(second.json)]).toEqual(newestFirst);
    // A later page's rows are whole as the first's: approvals and the sender's facts.
    expect(second.json.data[0]).toMatchObject({ status: "pending", approvals: expect.any(Array), couple: { distanceBand: null } });

    // A hello sent meanwhile shows on the first page, never shifts the next one.
    const late = await messagingCouple();
    expect((await connections.send({ coupleId: us.coupleId, note: "Late hello" }, late.a.headers)).status).toBe(201);
    const again = await connections.list("incoming", us.a.headers, first.json.pagination.nextCursor);
    expect(idsOf(again.json)).toEqual(idsOf(second.json));
    expect((await connections.list("incoming", us.a.headers)).json.total).toBe(SENDERS + 1);

    // A cursor works only in its box and for its couple: forged, the outgoing box's, another couple's are 400.
    const cursor = first.json.pagination.nextCursor;
    for (const [box, headers, text] of [
      ["incoming", us.a.headers, "forged.cursor"],
      ["outgoing", us.a.headers, cursor],
      ["incoming", senders[0]!.a.headers, cursor],
      ["incoming", us.a.headers, "x".repeat(300)],
    ] as const) {
      const refused = await connections.list(box, headers, text);
      expect(refused.status, `${box} ${text.slice(0, 12)}`).toBe(400);
      expect(refused.json.error.code).toBe("VALIDATION_ERROR");
    }
  });

  it("pages the sent hellos the same way, with no count", async () => {
    const [us, them] = [await messagingCouple(), await messagingCouple()];
    expect((await connections.send({ coupleId: them.coupleId, note: "Hello" }, us.a.headers)).status).toBe(201);
    const sent = await connections.list("outgoing", us.b.headers);
    expect(sent.json.data).toHaveLength(1);
    expect(sent.json.pagination).toEqual({ limit: REQUESTS_PAGE, hasMore: false, nextCursor: null });
    expect(sent.json.total).toBeUndefined();
  });

  it.skipIf(!onPostgres())("reads a later page as a range of connection_requests_incoming_idx", async () => {
    const { us, newestFirst } = await receivedHellos();
    const db = await getDb();
    const member = { userId: us.a.userId, coupleId: us.coupleId, partnerIds: [us.a.userId, us.b.userId] } as unknown as ActingCouple;
    const first = await listRequests(db, member, "incoming");
    const client = (db as unknown as { $client: postgres.Sql }).$client;
    const logged: { query: string; params: unknown[] }[] = [];
    const logging = drizzle(client, { schema, logger: { logQuery: (query, params) => void logged.push({ query, params }) } });
    const second = await listRequests(logging as unknown as Db, member, "incoming", first.pagination.nextCursor!);
    expect(idsOf(second)).toEqual(newestFirst.slice(REQUESTS_PAGE));
    const page = logged.find((entry) => /order by/i.test(entry.query))!;
    // Sequential scans priced out (a test table is small enough that one would win), as queryPlan does.
    const rows = await client.begin(async (tx) => {
      await tx.unsafe("set local enable_seqscan = off");
      return tx.unsafe(`explain ${page.query}`, page.params as never[]);
    });
    const plan = rows.map((row) => row["QUERY PLAN"] as string).join("\n");
    expect(wholeScans(plan)).toEqual([]);
    expect(plan).toContain("connection_requests_incoming_idx");
  });
});
