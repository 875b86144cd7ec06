import { eq, or, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { transaction } from "@/db/transaction";
import { couples, users } from "@/db/schema";
import { createCouple } from "@/lib/couples/service";
import { coupleCreateSchema } from "@/lib/couples/schemas";
import { completeProfileSetup } from "@/lib/profile/service";
import { afterStep1, coupleBody, setupBody, withCouple } from "../support/couples";
import { onPostgres } from "../support/test-database";

describe("one couple per user", () => {
  /** True once some statement of this database waits for a row lock. */
  async function someoneWaitsForALock() {
    const db = await getDb();
    const waiting = await db
      .select({ pid: sql<number>`pid` })
      .from(sql`pg_stat_activity`)
      .where(sql`datname = current_database() and wait_event_type = 'Lock'`);
    return waiting.length > 0;
  }

  const creators = {
    "POST /api/v2/couples": (userId: string) => async () => createCouple(await getDb(), userId, coupleCreateSchema.parse(coupleBody())),
    "complete-setup": (userId: string) => async () => {
      const { profileCompletionSchema } = await import("@/lib/profile/schemas");
      return completeProfileSetup(await getDb(), userId, profileCompletionSchema.parse(setupBody()));
    },
  };

  // A race needs two connections: the embedded database has one.
  it.skipIf(!onPostgres()).each(Object.keys(creators) as (keyof typeof creators)[])(
    "never puts a user in two couples when %s races with the user joining another couple",
    async (creator) => {
      const theirs = await withCouple();
      const { user } = await afterStep1();
      const db = await getDb();
      let creating: Promise<unknown> | undefined;
      let settled = false;
      // A join as lib/invitations does it: lock the user's row, see no couple yet, become partner 2.
      const join = transaction(db, async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for("update");
        const mine = await tx
          .select({ id: couples.id })
          .from(couples)
          .where(or(eq(couples.partner1Id, user.id), eq(couples.partner2Id, user.id)));
        expect(mine).toEqual([]);
        creating = creators[creator](user.id)().finally(() => (settled = true));
        creating.catch(() => {});
        // The create either finishes unhindered (no lock) or stops at the user's row: only then does the join go on.
        while (!settled && !(await someoneWaitsForALock())) await new Promise((resolve) => setTimeout(resolve, 10));
        await tx.update(couples).set({ partner2Id: user.id }).where(eq(couples.id, theirs.coupleId));
      });
      const [joined, created] = await Promise.allSettled([join, join.then(() => creating)]);
      expect(joined.status).toBe("fulfilled");
      expect(created).toMatchObject({ status: "rejected", reason: { code: "COUPLE_EXISTS" } });
      const memberships = await db
        .select({ id: couples.id })
        .from(couples)
        .where(or(eq(couples.partner1Id, user.id), eq(couples.partner2Id, user.id)));
      expect(memberships).toEqual([{ id: theirs.coupleId }]);
    },
  );
});
