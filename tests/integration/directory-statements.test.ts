import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb, type Db } from "@/db/client";
import { resultRows } from "@/db/result-rows";
import * as schema from "@/db/schema";
import { INTEREST_VALUES } from "@/lib/interests/catalogue";
import { countDirectory, listDirectory, listDirectoryMap } from "@/lib/directory/queries";
import { DIRECTORY_PAGE_DEFAULT } from "@/lib/directory/rules";
import { directoryQuerySchema, directoryWhereSchema } from "@/lib/directory/schemas";
import { planNodes, type PlanNode } from "../support/query-plan";
import { onPostgres } from "../support/test-database";

/**
 * The directory's reads run as named statements, one per shape (lib/directory/shapes.ts): the same
 * rows as the unnamed statements they were, and the same statements whatever the values.
 */
const COUPLES = 60;
const url = () => process.env.DATABASE_URL!;
let direct: postgres.Sql;
let unnamedClient: postgres.Sql;
/** The app's setting (postgres.js prepares what Drizzle prepares). */
let named: Db;
/** The client-side setting turned off: every statement unnamed, as before. */
let unnamed: Db;
const opened: postgres.Sql[] = [];
const viewers = { first: "", second: "" };

/** A page's statement (its cards' columns), not the viewer's couple, a search's matches or the cards' connection states. */
const isPage = (query: string) => query.includes('"couples"."couple_name"');

/**
 * A handle on one connection of its own, so its prepared statements are the ones it ran: the
 * pages' statements it sent, and those of them the connection holds prepared.
 */
function oneConnection(pick = isPage) {
  const client = postgres(url(), { max: 1, onnotice: () => {} });
  opened.push(client);
  const sent = new Set<string>();
  const db = drizzle(client, { schema, logger: { logQuery: (query) => void (pick(query) && sent.add(query)) } }) as unknown as Db;
  const prepared = async () =>
    new Set((await client<{ statement: string }[]>`select statement from pg_prepared_statements`).map((row) => row.statement).filter(pick));
  return { db, sent, prepared };
}

beforeAll(async () => {
  // On PGlite (no DATABASE_URL), the process's own database.
  const run = onPostgres() ? (text: string) => direct.unsafe(text) : async (text: string) => (await getDb()).execute(sql.raw(text));
  if (onPostgres()) {
    direct = postgres(url(), { max: 1, onnotice: () => {} });
    unnamedClient = postgres(url(), { max: 1, prepare: false, onnotice: () => {} });
    named = drizzle(direct, { schema }) as unknown as Db;
    unnamed = drizzle(unnamedClient, { schema }) as unknown as Db;
  }
  const pool = `array[${INTEREST_VALUES.slice(0, 8)
    .map((value) => `'${value}'`)
    .join(",")}]::text[]`;
  // Couples around Lisbon (within ±1°), some without a shown point, some verified or photo verified.
  await run(`insert into users (id, email, password_hash, first_name, last_name, date_of_birth, email_verified_at, interests)
    select md5('su' || g)::uuid, 'su' || g || '@statements.test', 'x', 'First' || g, 'Last' || g, date '1990-01-01', now(),
      array(select v from unnest(${pool}) with ordinality as t(v, i) where (g + i) % 3 = 0)
    from generate_series(1, ${2 * COUPLES}) g`);
  await run(`insert into couples (id, partner1_id, partner2_id, couple_name, couple_types, status, is_visible,
      partner_a_verified, partner_b_verified, photo_verified_partners, created_at)
    select md5('sc' || g)::uuid, md5('su' || (2 * g - 1))::uuid, md5('su' || (2 * g))::uuid, 'Statements ' || g,
      array['global_adventurers'], 'active', g % 17 <> 0, g % 2 = 0, g % 3 <> 0, (g % 4 = 0)::int, now() - g * interval '1 hour'
    from generate_series(1, ${COUPLES}) g`);
  await run(`insert into locations (entity_type, entity_id, place_id, display_location, latitude, longitude, city, country, privacy_level)
    select 'couple', md5('sc' || g)::uuid, 'statements:' || g, 'Place ' || g, 38.72 + ((g * 37) % 200 - 100) / 100.0,
      -9.14 + ((g * 53) % 200 - 100) / 100.0, 'City', 'Portugal',
      (case g % 7 when 0 then 'hidden' when 1 then 'country' when 2 then 'region' when 3 then 'full' else 'city' end)::privacy_level
    from generate_series(1, ${COUPLES}) g`);
  // The viewers: partners of couples 4 and 6 (city level, so each has a centre).
  const [first, second] = resultRows<{ id: string }>(await run(`select md5(u)::uuid as id from unnest(array['su7', 'su11']) u`));
  viewers.first = first!.id;
  viewers.second = second!.id;
  await run("analyze");
});

afterAll(async () => {
  await Promise.all([direct, unnamedClient, ...opened].map((client) => client?.end()));
});

/** Every filter set a page can be asked for, sorts and named page sizes included, and a few planned afresh. */
function* queries(): Generator<Record<string, string>> {
  for (const sort of ["newest", "nearest", "common"])
    for (const verified of ["", "1"])
      for (const photoVerified of ["", "1"]) for (const distance of ["", "50", "100"]) yield { sort, verified, photoVerified, distance };
  // Planned afresh (not named): the same rows all the same.
  yield { sort: "newest", interests: INTEREST_VALUES[0]! };
  yield { sort: "nearest", q: "statements" };
  yield { sort: "common", styles: "global_adventurers", limit: "7" };
}

/** Every page of a list, as the couples' ids, following each page's cursor. */
async function walk(db: Db, userId: string, params: Record<string, string>): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const page = await listDirectory(db, userId, directoryQuerySchema.parse({ ...params, ...(cursor ? { cursor } : {}) }));
    pages.push(page.data.map((card) => card.coupleId));
    cursor = page.pagination.nextCursor ?? undefined;
  } while (cursor && pages.length < 10);
  return pages;
}

/** The queries of named shapes only. */
const namedQueries = () => [...queries()].filter((params) => !params.q && !params.interests && !params.styles);

describe.skipIf(!onPostgres())("directory statements", () => {
  it("answer every shape with the same pages, named or not", async () => {
    let compared = 0;
    for (const params of queries()) {
      const mine = await walk(named, viewers.first, params);
      expect(mine, JSON.stringify(params)).toEqual(await walk(unnamed, viewers.first, params));
      compared += mine.flat().length;
    }
    const map = (db: Db) => listDirectoryMap(db, viewers.first, directoryQuerySchema.omit({ cursor: true, limit: true }).parse({}));
    expect((await map(named)).data.map((card) => card.coupleId)).toEqual((await map(unnamed)).data.map((card) => card.coupleId));
    // Several pages of most lists: the cursors' statements were compared too.
    expect(compared).toBeGreaterThan(3 * COUPLES);
  });

  it("run each shape's page as a named statement, the same one for other values", async () => {
    const { db, sent, prepared } = oneConnection();
    for (const params of namedQueries()) await walk(db, viewers.first, params);
    const statements = await prepared();
    // Every page statement it sent is one of the connection's prepared statements, and nothing else is.
    expect(statements).toEqual(sent);
    expect(sent.size).toBeGreaterThan(20);
    // Another viewer (another centre, couple and interests), the app's page size said: no new statement.
    for (const params of namedQueries()) await walk(db, viewers.second, { ...params, limit: String(DIRECTORY_PAGE_DEFAULT) });
    expect(await prepared()).toEqual(statements);
  });

  it("count every filter set as before, each shape a named statement", async () => {
    const { db, sent, prepared } = oneConnection((query) => query.startsWith("select count(*)::int from (select"));
    for (const params of namedQueries()) await countDirectory(db, viewers.first, directoryWhereSchema.parse(params));
    expect(await prepared()).toEqual(sent);
    expect(sent.size).toBeGreaterThan(5);
    for (const params of queries()) {
      const where = directoryWhereSchema.parse(params);
      expect(await countDirectory(named, viewers.first, where), JSON.stringify(params)).toEqual(
        await countDirectory(unnamed, viewers.first, where),
      );
    }
  });

  it("ask where the viewer stands with a page's couples only, not with every couple the filters match", async () => {
    const logged: { query: string; params: unknown[] }[] = [];
    const logging = drizzle(direct, {
      schema,
      logger: { logQuery: (query, params) => void logged.push({ query, params }) },
    }) as unknown as Db;
    for (const sort of ["newest", "nearest", "common"]) {
      logged.length = 0;
      await listDirectory(logging, viewers.first, directoryQuerySchema.parse({ sort, limit: "5" }));
      const pages = logged.filter(({ query }) => isPage(query));
      expect(pages.length, sort).toBeGreaterThan(0);
      for (const { query, params } of pages) {
        const [explained] = await direct.unsafe<{ "QUERY PLAN": [{ Plan: PlanNode }] }[]>(
          `explain (analyze, format json) ${query}`,
          params as never[],
        );
        const plan = explained!["QUERY PLAN"][0];
        const standings = planNodes(plan.Plan).filter((node) => node["Parent Relationship"] === "SubPlan");
        expect(standings.length, sort).toBeGreaterThan(0);
        // The page's rows (5 and the one that says there is more), of the 60 couples the filters match.
        for (const node of standings) expect(node["Actual Loops"], `${sort}: ${query}`).toBeLessThanOrEqual(6);
      }
    }
  });

  it("leave a search, an interest filter and another page size unnamed", async () => {
    const { db, sent, prepared } = oneConnection();
    await walk(db, viewers.first, { sort: "nearest", q: "statements" });
    await walk(db, viewers.first, { sort: "newest", interests: INTEREST_VALUES[0]! });
    await walk(db, viewers.first, { sort: "newest", limit: "7" });
    expect(sent.size).toBeGreaterThan(2);
    expect(await prepared()).toEqual(new Set());
  });
});

describe.skipIf(onPostgres())("directory statements on PGlite", () => {
  it("register each shape's page as a named statement of the embedded database, with the same pages", async () => {
    const db = await getDb();
    const statements = async () =>
      resultRows<{ name: string; statement: string }>(await db.execute(sql`select name, statement from pg_prepared_statements`)).filter(
        (row) => isPage(row.statement),
      );
    const pages = [];
    for (const params of namedQueries()) pages.push(await walk(db, viewers.first, params));
    const registered = await statements();
    expect(registered.length).toBeGreaterThan(20);
    expect(registered.every((row) => row.name.startsWith("app_statement_"))).toBe(true);
    // Again: the same pages from the same statements.
    const again = [];
    for (const params of namedQueries()) again.push(await walk(db, viewers.first, params));
    expect(again).toEqual(pages);
    expect(await statements()).toEqual(registered);
  });
});
