import { sql } from "drizzle-orm";
import { openDatabase } from "@/db/client";
const h = await openDatabase();
for (const t of ["users", "couples", "locations", "interests", "sessions"]) {
  const r = await h.db.execute(sql.raw(`select count(*)::int as n from ${t}`));
  const rows = (Array.isArray(r) ? r : (r as unknown as { rows: unknown[] }).rows) as { n: number }[];
  process.stdout.write(`${t}=${rows[0]!.n} `);
}
console.log();
await h.close();
