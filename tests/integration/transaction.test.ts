import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import { beforeCommit, transaction } from "@/db/transaction";
import { createUser } from "../support/api";

const failure = (code: string) => Object.assign(new Error(`failed with ${code}`), { code });

describe("transaction()", () => {
  it("runs a transaction again after a deadlock or a serialization failure, with nothing of the failed attempt kept", async () => {
    const db = await getDb();
    const user = await createUser({ firstName: "Before" });
    for (const code of ["40P01", "40001"]) {
      let attempts = 0;
      const answer = await transaction(db, async (tx) => {
        attempts++;
        await tx
          .update(users)
          .set({ firstName: `Attempt${attempts}` })
          .where(eq(users.id, user.id));
        // Drizzle wraps the driver's error: the code is found on a cause too.
        if (attempts < 3) throw new Error("query failed", { cause: failure(code) });
        return "done";
      });
      expect([answer, attempts]).toEqual(["done", 3]);
      const [row] = await db.select({ firstName: users.firstName }).from(users).where(eq(users.id, user.id));
      expect(row!.firstName).toBe("Attempt3");
    }
  });

  it("gives up after four attempts, and never retries any other error", async () => {
    const db = await getDb();
    let attempts = 0;
    await expect(
      transaction(db, async () => {
        attempts++;
        throw failure("40P01");
      }),
    ).rejects.toThrow("failed with 40P01");
    expect(attempts).toBe(4);
    attempts = 0;
    await expect(
      transaction(db, async () => {
        attempts++;
        throw failure("23505");
      }),
    ).rejects.toThrow("failed with 23505");
    expect(attempts).toBe(1);
  });

  it("joins the transaction it is handed, so before-commit work runs once, at the outer end", async () => {
    const db = await getDb();
    const flushed: string[][] = [];
    const key = Symbol("gathered");
    await transaction(db, async (tx) => {
      beforeCommit<string[]>(
        tx,
        key,
        () => [],
        async (_, state) => void flushed.push(state),
      ).push("outer");
      await transaction(tx, async (inner) => {
        expect(inner).toBe(tx);
        beforeCommit<string[]>(
          inner,
          key,
          () => [],
          async (_, state) => void flushed.push(state),
        ).push("inner");
      });
      expect(flushed).toEqual([]);
    });
    expect(flushed).toEqual([["outer", "inner"]]);
  });

  it("refuses before-commit work outside one of its transactions, and a transaction opened another way", async () => {
    const db = await getDb();
    expect(() =>
      beforeCommit(
        db,
        Symbol("x"),
        () => null,
        async () => {},
      ),
    ).toThrow(/transaction\(\)/);
    await expect(db.transaction((tx) => transaction(tx, async () => "never"))).rejects.toThrow(/transaction\(\)/);
  });
});
