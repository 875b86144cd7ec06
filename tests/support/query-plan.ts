import { sql, type SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import type postgres from "postgres";
import { getDb, type Db } from "@/db/client";
import * as schema from "@/db/schema";
import { resultRows } from "@/db/result-rows";

/**
 * The plan Postgres would run `query` with, as text, with sequential scans priced out (a test
 * table is small enough that a scan would win): which index a list's query can use. In one
 * transaction, so the setting and the EXPLAIN share a connection of the pool; the rows read the
 * same on postgres.js and PGlite.
 */
export async function queryPlan(query: SQL): Promise<string> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    const rows = resultRows<{ "QUERY PLAN": string }>(await tx.execute(sql`explain ${query}`));
    return rows.map((row) => row["QUERY PLAN"]).join("\n");
  });
}

/**
 * The lines of a plan that read a whole table or index: a sequential scan, or an index scan with
 * no condition on the index (walking all of it, in its order, is no lookup).
 */
export function wholeScans(plan: string): string[] {
  const lines = plan.split("\n");
  return lines.filter(
    (line, i) => /Seq Scan/.test(line) || (/Index (?:Only )?Scan (?:Backward )?using/.test(line) && !/Index Cond/.test(lines[i + 1] ?? "")),
  );
}

/** A node of `explain (analyze, format json)`'s plan, with what the tests read of it. */
export type PlanNode = {
  "Node Type"?: string;
  Alias?: string;
  "Relation Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Rows Removed by Filter"?: number;
  "Index Name"?: string;
  "Index Cond"?: string;
  /** "SubPlan" for a scalar subquery's plan. */
  "Parent Relationship"?: string;
  Plans?: PlanNode[];
};

/** A plan's nodes, the node itself first. */
export const planNodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(planNodes)];

/** The rows a plan read through the scans `pick` names, over all loops: those kept and those its filter dropped. */
export const rowsRead = (node: PlanNode, pick: (node: PlanNode) => boolean): number =>
  planNodes(node)
    .filter(pick)
    .reduce((sum, scan) => sum + (scan["Actual Rows"] + (scan["Rows Removed by Filter"] ?? 0)) * scan["Actual Loops"], 0);

/** The same database (postgres.js: tests.skipIf(!onPostgres())), recording the statements it is sent and their values: how many a read takes, and what it asks. */
export function recordingStatements(db: Db): { logging: Db; logged: { query: string; params: unknown[] }[] } {
  const logged: { query: string; params: unknown[] }[] = [];
  const client = (db as unknown as { $client: postgres.Sql }).$client;
  const logging = drizzle(client, {
    schema,
    logger: { logQuery: (query, params) => void logged.push({ query, params }) },
  }) as unknown as Db;
  return { logging, logged };
}
