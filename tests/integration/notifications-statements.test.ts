import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import * as schema from "@/db/schema";
import { listNotifications, unreadCount } from "@/lib/notifications/queries";
import { onPostgres } from "../support/test-database";

/** The bell's list, its total and the unread badge run as named statements: the same answers as unnamed ones. */
let named: postgres.Sql;
let unnamed: postgres.Sql;
let userId = "";
const handle = (client: postgres.Sql) => drizzle(client, { schema }) as unknown as Db;

beforeAll(async () => {
  if (!onPostgres()) return;
  // One connection each: the named one's prepared statements are the ones it ran.
  named = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  unnamed = postgres(process.env.DATABASE_URL!, { max: 1, prepare: false, onnotice: () => {} });
  const [user] = await named<{ id: string }[]>`insert into users (email, password_hash, first_name, last_name, date_of_birth)
    values ('bell@statements.test', 'x', 'Bell', 'Reader', date '1990-01-01') returning id`;
  userId = user!.id;
  await named`insert into notifications (user_id, type, title, message, is_read, created_at)
    select ${userId}, 'hello_received', 'Hello ' || g, 'A hello', g % 3 = 0, now() - g * interval '1 minute' from generate_series(1, 45) g`;
});

afterAll(async () => {
  await Promise.all([named?.end(), unnamed?.end()]);
});

describe.skipIf(!onPostgres())("notification statements", () => {
  it("answer every page, total and badge as unnamed statements do, as the connection's named statements", async () => {
    for (const [limit, offset] of [
      [20, 0],
      [20, 20],
      [20, 40],
      [5, 3],
    ] as const) {
      const query = { limit, offset } as Parameters<typeof listNotifications>[2];
      const page = await listNotifications(handle(named), userId, query);
      expect(page).toEqual(await listNotifications(handle(unnamed), userId, query));
      expect(page.pagination.total).toBe(45);
    }
    expect(await unreadCount(handle(named), userId)).toBe(30);
    expect(await unreadCount(handle(unnamed), userId)).toBe(30);
    const statements = await named<
      { statement: string }[]
    >`select statement from pg_prepared_statements where statement like 'select %"notifications"%'`;
    // The page, its total and the badge: one statement each, whatever the page asked.
    expect(statements.filter((row) => !row.statement.includes("pg_prepared_statements"))).toHaveLength(3);
  });
});
