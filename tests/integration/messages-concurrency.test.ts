import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { resultRows } from "@/db/result-rows";
import { couples, notifications, rateLimitHits } from "@/db/schema";
import { transaction } from "@/db/transaction";
import { sendMessage } from "@/lib/messages/service";
import { createUser } from "../support/api";
import { block, connected, messagingCouple, talk } from "../support/messages";
import { nextWhileWaiting, waitsOn, whileHeld, whileWriteHeld } from "../support/lock-race";
import { restricting } from "../support/moderation";
import { actingA } from "../support/plans";
import { onPostgres } from "../support/test-database";

const ROUNDS = 120;

/** Deadlocks Postgres detected in this file's database: a retried one leaves no failure, but is counted here. */
async function deadlocks(): Promise<number> {
  const db = await getDb();
  // Statistics reach the shared counters at most once a second after a transaction.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const [row] = resultRows<{ n: number }>(
    await db.execute(sql`select deadlocks::int as n from pg_stat_database where datname = current_database()`),
  );
  return row?.n ?? 0;
}

/** Puts the couple's partners so that partner 1's id sorts `order` partner 2's (the notification order against the lock order). */
async function orderPartners(coupleId: string, order: "before" | "after") {
  const db = await getDb();
  const [row] = await db.select({ p1: couples.partner1Id, p2: couples.partner2Id }).from(couples).where(eq(couples.id, coupleId));
  const sorted = row!.p1 < row!.p2!;
  if (sorted !== (order === "before"))
    await db.update(couples).set({ partner1Id: row!.p2!, partner2Id: row!.p1 }).where(eq(couples.id, coupleId));
}

describe("sending and reading at once", () => {
  for (const order of ["before", "after"] as const) {
    it(`never fails or deadlocks, ${ROUNDS} rounds, the readers' partner 1 sorting ${order} partner 2`, async () => {
      const { one, two, conversationId } = await connected();
      await orderPartners(one.coupleId, order);
      const db = await getDb();
      const deadlocksBefore = onPostgres() ? await deadlocks() : 0;
      let last = (await talk.send(conversationId, { body: "first" }, two.a.headers)).json.data.id as string;
      const failures: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        // The minute's message limit is not what this proves.
        await db.delete(rateLimitHits).where(inArray(rateLimitHits.subject, [two.a.userId, two.b.userId]));
        const writer = round % 2 ? two.a : two.b;
        const reader = round % 2 ? one.a : one.b;
        const [sent, read] = await Promise.all([
          talk.send(conversationId, { body: `round ${round}` }, writer.headers),
          talk.read(conversationId, { upTo: last }, reader.headers),
        ]);
        if (sent.status !== 201) failures.push(`send ${sent.status} ${JSON.stringify(sent.json)}`);
        if (read.status !== 200) failures.push(`read ${read.status} ${JSON.stringify(read.json)}`);
        if (sent.status === 201) last = sent.json.data.id;
      }
      expect(failures).toEqual([]);
      // Not one collision even retried: every lock is taken in one order.
      if (onPostgres()) expect(await deadlocks()).toBe(deadlocksBefore);
      const thread = await talk.thread(conversationId, one.a.headers, "?limit=100");
      expect(thread.json.data.at(-1).body).toBe(`round ${ROUNDS - 1}`);
    });
  }
});

describe.skipIf(!onPostgres())("two messages at one instant", () => {
  it("are dated in the order they are numbered: one whose transaction began first but waited is dated after the other", async () => {
    const { one, two, conversationId } = await connected();
    const db = await getDb();
    await transaction(db, async (tx) => {
      // The transaction has begun (its now() is this instant); another member's message commits meanwhile.
      await tx.execute(sql`select 1`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect((await talk.send(conversationId, { body: "sent meanwhile" }, two.a.headers)).status).toBe(201);
      await sendMessage(tx, actingA(one), conversationId, { body: "began first", photoUrl: null, replyToId: null, clientKey: null });
    });
    const thread = (await talk.thread(conversationId, one.a.headers, "?limit=10")).json.data as { body: string; createdAt: string }[];
    // The browser orders a thread by date (lib/messages/display.ts) and marks read up to the last shown: the number's order.
    const byDate = [...thread].sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map((message) => message.body);
    expect(byDate.slice(-2)).toEqual(["sent meanwhile", "began first"]);
  });
});

describe.skipIf(!onPostgres())("reading up to a message while the next one is being sent", () => {
  it("leaves the conversation's bell entry unread when the next message's notice refreshed it before the read committed", async () => {
    const { one, two, conversationId } = await connected();
    const first = (await talk.send(conversationId, { body: "first" }, one.a.headers)).json.data.id as string;
    const db = await getDb();
    const bell = async () =>
      db
        .select({ isRead: notifications.isRead })
        .from(notifications)
        .where(and(eq(notifications.userId, two.a.userId), eq(notifications.conversationId, conversationId)));
    expect(await bell()).toEqual([{ isRead: false }]);
    let read: ReturnType<typeof talk.read> | undefined;
    await transaction(db, async (tx) => {
      // The next message is written and its notice refreshes Ana's bell entry; not committed yet.
      await sendMessage(tx, actingA(one), conversationId, { body: "second", photoUrl: null, replyToId: null, clientKey: null });
      // Meanwhile she reads up to the first (on a connection of its own); the send then commits.
      read = talk.read(conversationId, { upTo: first }, two.a.headers);
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    expect((await read!).json.data).toEqual({ unreadCount: 1 });
    expect((await talk.unread(two.a.headers)).json.data.unread_count).toBe(1);
    expect(await bell()).toEqual([{ isRead: false }]);
  });
});

describe.skipIf(!onPostgres())("reading up to a message while a block ends the conversation", () => {
  it("moves the read position before the block (which waits for it), never after: no 'Seen' from the blocked couple after it", async () => {
    const { one, two, conversationId } = await connected();
    const id = (await talk.send(conversationId, { body: "Are you coming?" }, two.a.headers)).json.data.id as string;
    // The read held at the reader's bell entry for the conversation (its position already written), the block made meanwhile.
    const { write: read, actionWaited } = await whileWriteHeld(
      (tx) => tx`select id from notifications where user_id = ${one.a.userId} and conversation_id = ${conversationId} for update`,
      () => talk.read(conversationId, { upTo: id }, one.a.headers),
      () => block(one.coupleId, two.a.headers),
    );
    expect(read.status).toBe(200);
    expect(actionWaited, "the block waited for it").toBe(true);
  });
});

describe.skipIf(!onPostgres())("a message on its way while a moderator restricts its couple", () => {
  it("a send waits for the restriction and is refused (403 ACCOUNT_RESTRICTED), never landing after it", async () => {
    const { one, conversationId } = await connected();
    const [sent] = await whileHeld(restricting(one), [() => talk.send(conversationId, { body: "just in time?" }, one.a.headers)]);
    expect(sent!.status).toBe(403);
    expect(sent!.json.error.code).toBe("ACCOUNT_RESTRICTED");
    const thread = (await talk.thread(conversationId, one.a.headers)).json.data as { body: string }[];
    expect(thread.map((message) => message.body)).not.toContain("just in time?");
  });

  it("an edit waits for the restriction and is refused as well: the words stay as they were", async () => {
    const { one, conversationId } = await connected();
    const id = (await talk.send(conversationId, { body: "before" }, one.a.headers)).json.data.id as string;
    const [edited] = await whileHeld(restricting(one), [() => talk.edit(id, { body: "after" }, one.a.headers)]);
    expect(edited!.status).toBe(403);
    expect(edited!.json.error.code).toBe("ACCOUNT_RESTRICTED");
    const thread = (await talk.thread(conversationId, one.a.headers)).json.data as { body: string }[];
    expect(thread.map((message) => message.body)).toEqual(["before"]);
  });

  it("a partner deleting their account holds their row: the send waits for it before it takes the couple (no deadlock)", async () => {
    const { one, conversationId } = await connected();
    const { waited, answer } = await nextWhileWaiting(
      // What a deletion takes first (lib/account/deletion.ts)...
      (tx) => tx`select id from users where id = ${one.b.userId} for update`,
      () => talk.send(conversationId, { body: "still here" }, one.a.headers),
      // ...and next. NOWAIT: it fails if the send holds the couple while it waits on the partner's row.
      (tx) => tx`select id from couples where id = ${one.coupleId} for update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(201);
  });

  it("partner A sending beside their invitation's send, with a partner 2 who never proved the address: the send holds nothing of that partner's while it waits on the couple", async () => {
    const { one, conversationId } = await connected();
    // The lowest id there is, so a lock taken in id order takes this row before partner A's.
    const unproven = await createUser({
      id: "00000000-0000-4000-8000-000000000001",
      emailVerifiedAt: null,
      registrationType: "partner_invitation",
    });
    const db = await getDb();
    await db.update(couples).set({ partner1Id: one.a.userId, partner2Id: unproven.id }).where(eq(couples.id, one.coupleId));
    const { waited, answer } = await nextWhileWaiting(
      // What an invitation's send takes first (lib/invitations/send.ts): the inviter's row key-share, then the couple.
      async (tx) => {
        await tx`select id from users where id = ${one.a.userId} for key share`;
        await tx`select id from couples where id = ${one.coupleId} for update`;
      },
      () => talk.send(conversationId, { body: "while inviting" }, one.a.headers),
      // ...then the unproven partner 2's row, to release them. NOWAIT: it fails if the send holds it while it waits.
      (tx) => tx`select id from users where id = ${unproven.id} for update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(201);
  });
});

describe.skipIf(!onPostgres())("a write to a conversation of other couples", () => {
  it("holds none of its four people before its 404: a send, a read, an edit, a reaction and a mute answer while a member's row is held", async () => {
    const { one, two, conversationId } = await connected();
    const stranger = await messagingCouple();
    const message = (await talk.send(conversationId, { body: "Friday at eight?" }, two.a.headers)).json.data.id as string;
    for (const write of [
      () => talk.send(conversationId, { body: "Let us in" }, stranger.a.headers),
      () => talk.read(conversationId, { upTo: message }, stranger.a.headers),
      () => talk.edit(message, { body: "Friday at nine?" }, stranger.a.headers),
      () => talk.react(message, "heart", true, stranger.a.headers),
      () => talk.mute(conversationId, true, stranger.a.headers),
    ]) {
      // What an account's deletion holds first (lib/account/deletion.ts).
      const { waited, answer } = await waitsOn((tx) => tx`select id from users where id = ${one.b.userId} for update`, write);
      expect(waited).toBe(false);
      expect(answer.status).toBe(404);
    }
  });
});

describe.skipIf(!onPostgres())("muting a conversation while a message is on its way", () => {
  it("waits for the message: its notice comes before the mute, never after it", async () => {
    const { one, two, conversationId } = await connected();
    await talk.send(conversationId, { body: "first" }, one.a.headers);
    // The next message is held at Ana's bell entry (it has read who muted), and she mutes meanwhile.
    const {
      write: sent,
      action: muted,
      actionWaited,
    } = await whileWriteHeld(
      (tx) => tx`select id from notifications where user_id = ${two.a.userId} and conversation_id = ${conversationId} for update`,
      () => talk.send(conversationId, { body: "second" }, one.a.headers),
      () => talk.mute(conversationId, true, two.a.headers),
    );
    expect(sent.status).toBe(201);
    expect(muted.status).toBe(200);
    expect(actionWaited, "the mute waited for the message on its way").toBe(true);
  });

  it("a person deleting their account in another tab holds their row: the mute waits for it before it takes the conversation (no deadlock)", async () => {
    const { one, conversationId } = await connected();
    const { waited, answer } = await nextWhileWaiting(
      // What a deletion takes first (lib/account/deletion.ts)...
      (tx) => tx`select id from users where id = ${one.a.userId} for update`,
      () => talk.mute(conversationId, true, one.a.headers),
      // ...and next, its couple's last partner gone: the conversation ends. NOWAIT: it fails if the
      // mute holds the conversation while it waits on the person's row.
      (tx) => tx`select id from conversations where id = ${conversationId} for update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
  });
});
