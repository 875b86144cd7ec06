import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { liveEvents, messageReactions, messages } from "@/db/schema";
import { EDIT_WINDOW_MS, MESSAGE_TEXTS, quoteExcerpt } from "@/lib/messages/rules";
import { block, connected, messagingCouple, talk } from "../support/messages";
import { whileHeld, whileWriteHeld } from "../support/lock-race";
import { onPostgres } from "../support/test-database";

/** Live `message` rows for one message: everyone who was told it changed. */
async function toldAbout(messageId: string) {
  const db = await getDb();
  return (await db.select({ userId: liveEvents.userId }).from(liveEvents).where(eq(liveEvents.subjectId, messageId))).length;
}

describe("replying to a message", () => {
  it("quotes the message it answers for all four; only a message of the same conversation, still there", async () => {
    const { one, two, conversationId } = await connected();
    const asked = await talk.send(conversationId, { body: "Dinner on Friday? We know a place by the river." }, one.a.headers);
    const reply = await talk.send(conversationId, { body: "Yes please!", replyToId: asked.json.data.id }, two.b.headers);
    expect(reply.status).toBe(201);
    expect(reply.json.data.replyTo).toEqual({
      id: asked.json.data.id,
      authorFirstName: one.a.firstName,
      excerpt: "Dinner on Friday? We know a place by the river.",
      photo: false,
      deleted: false,
    });
    const seen = (await talk.thread(conversationId, one.b.headers)).json.data.at(-1);
    expect(seen.replyTo.id).toBe(asked.json.data.id);
    // Cut by characters, as an open thread cuts the quote again when the quoted message is edited.
    const long = await talk.send(conversationId, { body: "😀".repeat(150) }, one.a.headers);
    const laughed = await talk.send(conversationId, { body: "Ha!", replyToId: long.json.data.id }, two.b.headers);
    expect(laughed.json.data.replyTo.excerpt).toBe(quoteExcerpt("😀".repeat(150)));

    // Another conversation's message, a deleted one, or not an id: 400, nothing sent.
    const other = await connected();
    const elsewhere = await talk.send(other.conversationId, { body: "Elsewhere" }, other.one.a.headers);
    for (const replyToId of [elsewhere.json.data.id, "not-an-id"]) {
      const refused = await talk.send(conversationId, { body: "Nope", replyToId }, one.a.headers);
      expect(refused.status).toBe(400);
      expect(refused.json.error.message).toBe(MESSAGE_TEXTS.replyToInvalid);
    }
    await talk.remove(asked.json.data.id, one.a.headers);
    expect((await talk.send(conversationId, { body: "Too late", replyToId: asked.json.data.id }, two.a.headers)).status).toBe(400);
    // A deleted original shows as deleted in the quote, its words gone.
    const after = (await talk.thread(conversationId, two.a.headers)).json.data.find((m: { id: string }) => m.id === reply.json.data.id);
    expect(after.replyTo).toMatchObject({ deleted: true, excerpt: null });
    expect((await talk.thread(conversationId, two.a.headers)).json.data.map((m: { body: string }) => m.body)).not.toContain("Nope");
  });
});

describe.skipIf(!onPostgres())("a reply sent while the message it answers is being erased", () => {
  it("waits for the erasure and is refused (400), never sent to words erased meanwhile", async () => {
    const { one, two, conversationId } = await connected();
    const asked = (await talk.send(conversationId, { body: "Dinner on Friday?" }, one.a.headers)).json.data.id as string;
    // What an erasure does (lib/messages/service.ts erase), held open on a second connection while the reply is sent.
    const [replied] = await whileHeld(
      async (tx) => {
        await tx`select id from messages where id = ${asked} for update`;
        await tx`update messages set body = null, photo_url = null, deleted_at = now() where id = ${asked}`;
      },
      [() => talk.send(conversationId, { body: "Yes please!", replyToId: asked }, two.b.headers)],
    );
    expect(replied!.status).toBe(400);
    expect(replied!.json.error.message).toBe(MESSAGE_TEXTS.replyToInvalid);
    const db = await getDb();
    expect(await db.select({ id: messages.id }).from(messages).where(eq(messages.replyToId, asked))).toEqual([]);
  });
});

describe("editing a message", () => {
  it("lets its author change the words within 15 minutes, 'edited' for all four, told live", async () => {
    const { one, two, conversationId } = await connected();
    const sent = await talk.send(conversationId, { body: "See you at 7" }, one.a.headers);
    const id = sent.json.data.id;
    expect(sent.json.data.editedAt).toBeNull();
    const before = await toldAbout(id);
    const edited = await talk.edit(id, { body: "See you at 8" }, one.a.headers);
    expect(edited.status).toBe(200);
    expect(edited.json.data).toMatchObject({ body: "See you at 8", editedAt: expect.stringMatching(/^\d{4}-/) });
    expect((await talk.thread(conversationId, two.b.headers)).json.data.at(-1)).toMatchObject({ body: "See you at 8" });
    expect((await toldAbout(id)) - before).toBe(4);

    // Not the author: 403; outside the conversation: 404; bad words: 400.
    expect((await talk.edit(id, { body: "Mine now" }, one.b.headers)).status).toBe(403);
    const stranger = await messagingCouple();
    expect((await talk.edit(id, { body: "Hi" }, stranger.a.headers)).status).toBe(404);
    expect((await talk.edit(id, { body: "   " }, one.a.headers)).status).toBe(400);
    expect((await talk.edit(id, { body: "x".repeat(4_001) }, one.a.headers)).status).toBe(400);

    // After the window: 403 with the reason; the words stay.
    const db = await getDb();
    await db
      .update(messages)
      .set({ createdAt: new Date(Date.now() - EDIT_WINDOW_MS - 1_000) })
      .where(eq(messages.id, id));
    const late = await talk.edit(id, { body: "See you at 9" }, one.a.headers);
    expect(late.status).toBe(403);
    expect(late.json.error.message).toBe(MESSAGE_TEXTS.editClosed);
    expect((await talk.thread(conversationId, one.a.headers)).json.data.at(-1).body).toBe("See you at 8");
  });

  it("refuses a deleted message and an ended conversation", async () => {
    const { one, two, conversationId } = await connected();
    const gone = await talk.send(conversationId, { body: "Oops" }, one.a.headers);
    await talk.remove(gone.json.data.id, one.a.headers);
    expect((await talk.edit(gone.json.data.id, { body: "Fixed" }, one.a.headers)).json.error.message).toBe(MESSAGE_TEXTS.editDeleted);
    const kept = await talk.send(conversationId, { body: "Still here" }, one.a.headers);
    await block(two.coupleId, one.a.headers);
    const ended = await talk.edit(kept.json.data.id, { body: "Changed" }, one.a.headers);
    expect(ended.status).toBe(403);
    expect(ended.json.error.code).toBe("CONVERSATION_ENDED");
  });
});

describe("reacting to a message", () => {
  it("counts each of the five once per person, says which are the viewer's, and tells all four", async () => {
    const { one, two, conversationId } = await connected();
    const sent = await talk.send(conversationId, { body: "We booked it!" }, one.a.headers);
    const id = sent.json.data.id;
    expect(sent.json.data.reactions).toEqual([]);
    const before = await toldAbout(id);
    await talk.react(id, "heart", true, two.a.headers);
    await talk.react(id, "heart", true, two.a.headers);
    const both = await talk.react(id, "heart", true, two.b.headers);
    expect(both.json.data.reactions).toEqual([{ kind: "heart", count: 2, names: [two.a.firstName, two.b.firstName], mine: true }]);
    await talk.react(id, "clap", true, one.b.headers);
    const seen = (await talk.thread(conversationId, one.a.headers)).json.data.at(-1);
    expect(seen.reactions).toEqual([
      { kind: "heart", count: 2, names: [two.a.firstName, two.b.firstName], mine: false },
      { kind: "clap", count: 1, names: [one.b.firstName], mine: false },
    ]);
    // Repeating one changed nothing and told nobody: three changes, four people each.
    expect((await toldAbout(id)) - before).toBe(12);
    const off = await talk.react(id, "heart", false, two.a.headers);
    expect(off.json.data.reactions[0]).toEqual({ kind: "heart", count: 1, names: [two.b.firstName], mine: false });

    // Not one of the five: 400; outside the conversation: 404; a deleted message: 404 and its reactions gone from view.
    expect((await talk.react(id, "thumbs", true, two.a.headers)).status).toBe(400);
    const stranger = await messagingCouple();
    expect((await talk.react(id, "heart", true, stranger.a.headers)).status).toBe(404);
    await talk.remove(id, one.a.headers);
    expect((await talk.react(id, "wow", true, two.a.headers)).status).toBe(404);
    expect((await talk.thread(conversationId, two.a.headers)).json.data.at(-1).reactions).toEqual([]);
    const db = await getDb();
    expect(await db.select().from(messageReactions).where(eq(messageReactions.messageId, id))).toHaveLength(0);
  });
});

describe.skipIf(!onPostgres())("a change under way while a block ends the conversation", () => {
  /** The change held at its rate limit (its checks read), the block made meanwhile by the other couple. */
  const heldChange = <T>(userId: string, change: () => Promise<T>, blocking: () => Promise<unknown>) =>
    whileWriteHeld((tx) => tx`select pg_advisory_xact_lock(hashtextextended(${`message-change:minute:${userId}`}, 0))`, change, blocking);

  it("lands before the block (which waits for it), never after: no word of the blocked couple changes in the ended thread", async () => {
    const { one, two, conversationId } = await connected();
    const id = (await talk.send(conversationId, { body: "See you at 7" }, one.a.headers)).json.data.id as string;
    const { write: edited, actionWaited } = await heldChange(
      one.a.userId,
      () => talk.edit(id, { body: "See you at 8" }, one.a.headers),
      () => block(one.coupleId, two.a.headers),
    );
    expect(edited.status).toBe(200);
    expect(actionWaited, "the block waited for it").toBe(true);
  });

  it("the same for a reaction: none from the blocked couple is added to the ended thread after the block", async () => {
    const { one, two, conversationId } = await connected();
    const id = (await talk.send(conversationId, { body: "We booked it!" }, two.a.headers)).json.data.id as string;
    const { write: reacted, actionWaited } = await heldChange(
      one.a.userId,
      () => talk.react(id, "heart", true, one.a.headers),
      () => block(one.coupleId, two.a.headers),
    );
    expect(reacted.status).toBe(200);
    expect(actionWaited, "the block waited for it").toBe(true);
  });
});
