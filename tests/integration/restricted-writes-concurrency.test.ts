import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { connectionRequests } from "@/db/schema";
import { whileHeld } from "../support/lock-race";
import { connections, messagingCouple } from "../support/messages";
import { restricting } from "../support/moderation";
import { onPostgres } from "../support/test-database";

/**
 * Each write a restriction withholds (a hello, a post or reply and their edits, a plan's words),
 * started while a moderator's restriction of its couple is being made: it waits for the
 * restriction and is refused (403 ACCOUNT_RESTRICTED), never landing just after it. The message's
 * own are in messages-concurrency.test.ts.
 */

const refused = (answer: { status: number; json: { error?: { code: string } } } | undefined) => {
  expect(answer!.status).toBe(403);
  expect(answer!.json.error?.code).toBe("ACCOUNT_RESTRICTED");
};

describe.skipIf(!onPostgres())("a write on its way while a moderator restricts its couple", () => {
  it("a hello waits for the restriction and is refused: no request sent", async () => {
    const one = await messagingCouple();
    const two = await messagingCouple();
    const [sent] = await whileHeld(restricting(one), [
      () => connections.send({ coupleId: two.coupleId, note: "Just in time?" }, one.a.headers),
    ]);
    refused(sent);
    const db = await getDb();
    expect(await db.select().from(connectionRequests).where(eq(connectionRequests.fromCoupleId, one.coupleId))).toEqual([]);
  });
});
