import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { users } from "@/db/schema";
import { streamAccountExport } from "@/lib/account/export";

/** Whether `work` settles within `ms`. */
const within = (work: Promise<unknown>, ms: number) =>
  Promise.race([work.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

describe("'Download my data' on the embedded database (one connection for the whole process)", () => {
  it("a reader that never reads the download holds nothing: every other request is answered meanwhile", async () => {
    const embedded = await openDatabase("", "memory://");
    try {
      await embedded.migrate();
      const db = embedded.db;
      const [person] = await db
        .insert(users)
        .values({ email: "slow.reader@example.com", passwordHash: "x", firstName: "Slow", lastName: "Reader", dateOfBirth: "1990-01-01" })
        .returning({ id: users.id });
      const { body } = await streamAccountExport(db, person!.id);
      // Nobody reads the body: the next request still gets its answer.
      const answered = await within(db.execute(sql`select 1`), 3_000);
      if (!answered) await body.cancel();
      expect(answered).toBe(true);
      expect(JSON.parse(await new Response(body).text()).profile.email).toBe("slow.reader@example.com");
    } finally {
      await embedded.close();
    }
  }, 120_000);
});
