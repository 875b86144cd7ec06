/** EXPLAIN ANALYZE of the SQL a call runs, captured by a logging handle on the same database (the plan is of the same SQL, rebuilt). */
import type postgres from "postgres";
import type { Db } from "@/db/client";

async function explain(sql: postgres.Sql, label: string, text: string, params: unknown[]): Promise<void> {
  const plan = await sql.unsafe(`explain (analyze, costs off, summary on) ${text}`, params as never[]);
  console.log(`-- EXPLAIN ${label}\n${plan.map((row) => `    ${row["QUERY PLAN"]}`).join("\n")}`);
}

/**
 * Runs `call` once on a logging handle over `sql`, then prints the plan of each read it made
 * (`only` picks which, by their SQL). With `readOf`, every statement `only` picks counts, and
 * the plan is of the read `readOf` cuts out of it (a delete's pick, whose parameters it holds
 * all of, in their order), so explaining it changes nothing.
 */
export async function explainCall(
  sql: postgres.Sql,
  label: string,
  call: (db: Db) => Promise<unknown>,
  only: (query: string) => boolean = () => true,
  readOf?: (query: string) => string,
): Promise<void> {
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const schema = await import("@/db/schema");
  const logged: { query: string; params: unknown[] }[] = [];
  const db = drizzle(sql, { schema, logger: { logQuery: (query, params) => void logged.push({ query, params }) } }) as unknown as Db;
  await call(db);
  // Reads: a select, a union's first part, or a statement with a CTE (a thread's page).
  const reads = readOf ? logged : logged.filter(({ query }) => /^(?:select|with)\b/i.test(query.trimStart()) || query.startsWith("("));
  for (const [i, { query, params }] of reads.entries())
    if (only(query)) await explain(sql, `${label} (${i + 1}/${reads.length})`, readOf ? readOf(query) : query, params);
}
