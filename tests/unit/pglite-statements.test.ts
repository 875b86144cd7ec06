import { PGlite } from "@electric-sql/pglite";
import { afterAll, describe, expect, it } from "vitest";
import { withNamedStatements } from "@/db/pglite-statements";

const raw = new PGlite("memory://");
const client = withNamedStatements(raw);
await raw.exec(`create table t (id uuid primary key, at timestamptz not null, tags text[] not null, n int)`);
await raw.query(`insert into t values ('0b7f2a3e-5c1d-4e8f-9a6b-1c2d3e4f5a6b', '2026-01-02T03:04:05Z', '{a,b}', null)`);
const text = `select id, at, tags, n from t where id = $1 and at < $2`;
client.nameStatement(text);

afterAll(() => raw.close());

describe("PGlite named statements", () => {
  it("answer what query() answers, with the same parsers and row mode", async () => {
    const params = ["0b7f2a3e-5c1d-4e8f-9a6b-1c2d3e4f5a6b", new Date("2027-01-01")];
    for (const options of [undefined, { rowMode: "array" as const }]) {
      const named = await client.query(text, params, options);
      expect(named.rows).toEqual((await raw.query(text, params, options)).rows);
    }
    expect((await client.query<{ at: Date }>(text, params)).rows[0]!.at).toEqual(new Date("2026-01-02T03:04:05Z"));
  });

  it("throw the database's error and leave the client usable", async () => {
    await expect(client.query(text, ["not-a-uuid", new Date()])).rejects.toThrow(/uuid/);
    expect((await client.query(text, ["0b7f2a3e-5c1d-4e8f-9a6b-1c2d3e4f5a6b", new Date("2027-01-01")])).rows).toHaveLength(1);
    expect((await client.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
  });

  it("wait for an open transaction instead of running inside it", async () => {
    const at = new Date("2027-01-01");
    let read: Promise<number | null> | undefined;
    await client.transaction(async (tx) => {
      await tx.query(`update t set n = 1`);
      read = client.query<{ n: number }>(text, ["0b7f2a3e-5c1d-4e8f-9a6b-1c2d3e4f5a6b", at]).then((result) => result.rows[0]!.n);
      await new Promise((resolve) => setTimeout(resolve, 30));
      await tx.query(`update t set n = 2`);
    });
    // Inside it would have read 1, between its statements nothing: it ran after the commit.
    expect(await read).toBe(2);
  });
});
