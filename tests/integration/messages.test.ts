import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { NextRequest } from "next/server";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { GET as imageRoute } from "@/app/api/images/[...key]/route";
import { GET as photoRoute } from "@/app/api/messages/photos/[...key]/route";
import { POST as photosRoute } from "@/app/api/messages/photos/route";
import { getDb } from "@/db/client";
import { couples, liveEvents, messagePhotos, messages, notifications, rateLimitHits, users } from "@/db/schema";
import { excerpt } from "@/lib/plain-text";
import { isNewMessage, mergeMessages } from "@/lib/messages/display";
import { MESSAGE_LIMITS } from "@/lib/messages/rules";
import { unreadCount } from "@/lib/notifications/queries";
import { runDueWork } from "@/lib/scheduled/service";
import type { Headers } from "../support/forum";
import { block, connected, messagingCouple, talk, unblock } from "../support/messages";

type Message = {
  id: string;
  body: string | null;
  deleted: boolean;
  author: { userId: string | null; firstName: string; coupleName: string };
};
const bodies = (res: { json: { data: Message[] } }) => res.json.data.map((m) => m.body);

async function uploadPhoto(h: Headers, blob: Blob | null) {
  const form = new FormData();
  if (blob) form.append("photo", blob, "photo.jpg");
  const request = new NextRequest(new URL("/api/messages/photos", "http://localhost:3000"), { method: "POST", headers: h, body: form });
  const response = await photosRoute(request, { params: Promise.resolve({} as never) });
  return { status: response.status, json: await response.json() };
}

/** Messages straight in the database, in order (no rate limit). */
async function seedMessages(conversationId: string, authorUserId: string, authorCoupleId: string, count: number) {
  const db = await getDb();
  for (let i = 1; i <= count; i++) await db.insert(messages).values({ conversationId, authorUserId, authorCoupleId, body: `seeded ${i}` });
}

describe("a conversation between two couples", () => {
  it("lets all four write and read, oldest first, author as person of couple, line breaks kept", async () => {
    const { one, two, conversationId } = await connected();
    const people = [one.a, one.b, two.a, two.b];
    for (const person of people) {
      const res = await talk.send(conversationId, { body: `Hi from ${person.firstName}\r\nsecond line` }, person.headers);
      expect(res.status).toBe(201);
      expect(res.json.data).toEqual({
        id: expect.any(String),
        conversationId,
        body: `Hi from ${person.firstName}\nsecond line`,
        photoUrl: null,
        author: { userId: person.userId, firstName: person.firstName, coupleId: expect.any(String), coupleName: expect.any(String) },
        createdAt: expect.stringMatching(/^\d{4}-/),
        editedAt: null,
        deleted: false,
        replyTo: null,
        reactions: [],
      });
    }
    for (const person of people) {
      const thread = await talk.thread(conversationId, person.headers);
      expect(thread.status).toBe(200);
      expect(bodies(thread)).toEqual(people.map((p) => `Hi from ${p.firstName}\nsecond line`));
      expect(thread.json.pagination).toEqual({ hasMore: false });
    }
    expect((await talk.thread(conversationId, two.b.headers)).json.data[0].author).toMatchObject({
      firstName: one.a.firstName,
      coupleName: one.name,
    });
    const db = await getDb();
    const live = await db
      .select({ userId: liveEvents.userId })
      .from(liveEvents)
      .innerJoin(messages, eq(messages.id, liveEvents.subjectId))
      .where(and(eq(messages.conversationId, conversationId), eq(liveEvents.kind, "message")));
    expect(live).toHaveLength(16);
  });

  it("answers 404 to a fifth person for the conversation, its messages, its read and mute calls, and its messages' deletion", async () => {
    const { one, conversationId } = await connected();
    const fifth = await messagingCouple();
    const sent = await talk.send(conversationId, { body: "Private words" }, one.a.headers);
    const h = fifth.a.headers;
    for (const res of [
      await talk.detail(conversationId, h),
      await talk.thread(conversationId, h),
      await talk.send(conversationId, { body: "Let me in" }, h),
      await talk.read(conversationId, { upTo: sent.json.data.id }, h),
      await talk.mute(conversationId, true, h),
      await talk.remove(sent.json.data.id, h),
      await talk.detail(randomUUID(), one.a.headers),
    ]) {
      expect(res.status).toBe(404);
      expect(JSON.stringify(res.json)).not.toContain("Private words");
    }
    expect((await talk.detail("not-an-id", one.a.headers)).status).toBe(400);
    expect((await talk.inbox(h)).json.data).toEqual([]);
    expect((await talk.thread(conversationId, {})).status).toBe(401);
  });

  it("refuses bad messages with 400 and the field's message", async () => {
    const { one, conversationId } = await connected();
    const cases: [unknown, string][] = [
      [{}, "Please write a message"],
      [{ body: " \n " }, "Please write a message"],
      [{ body: "x".repeat(4001) }, "Your message must be no more than 4,000 characters"],
      [{ body: "a\u0007b" }, "Your message contains characters that are not allowed"],
      [{ body: "a\udfffb" }, "Your message contains characters that are not allowed"],
      [{ body: 7 }, "Please write a message"],
      [{ body: "hi", photoUrl: "https://evil.example/x.jpg" }, "Please upload the photo here: links to images elsewhere are not accepted"],
      [{ body: "hi", photoUrl: 3 }, "photoUrl must be a photo uploaded with POST /api/messages/photos"],
    ];
    for (const [body, message] of cases) {
      const res = await talk.send(conversationId, body, one.a.headers);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.message).toBe(message);
    }
    expect((await talk.send(conversationId, { body: "<b>x</b> **y**" }, one.a.headers)).json.data.body).toBe("<b>x</b> **y**");
    expect((await talk.send(conversationId, { body: "x".repeat(4000) }, one.a.headers)).status).toBe(201);
  });

  it("sends one photo uploaded through the image pipeline, once, by its uploader only", async () => {
    const { one, two, conversationId } = await connected();
    const jpeg = await sharp({ create: { width: 1600, height: 1000, channels: 3, background: "#336699" } })
      .jpeg()
      .toBuffer();
    const up = await uploadPhoto(one.a.headers, new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }));
    expect(up.status).toBe(201);
    const url = up.json.data.url as string;
    expect(url).toMatch(/^\/api\/messages\/photos\/message-photo\/[0-9a-f]{32}\.jpg$/);
    expect((await talk.send(conversationId, { body: "Look", photoUrl: url }, two.a.headers)).status).toBe(400);
    const sent = await talk.send(conversationId, { body: "Look", photoUrl: url }, one.a.headers);
    expect(sent.json.data.photoUrl).toBe(url);
    expect((await talk.send(conversationId, { body: "Again", photoUrl: url }, one.a.headers)).status).toBe(400);
    expect((await uploadPhoto(one.a.headers, null)).status).toBe(400);
    expect((await uploadPhoto(one.a.headers, new Blob(["<svg/>"], { type: "image/svg+xml" }))).status).toBe(400);
  });

  it("pages the thread: the newest page, then older ones before a message; limits checked", async () => {
    const { one, two, conversationId } = await connected();
    await seedMessages(conversationId, one.a.userId, one.coupleId, 35);
    const newest = await talk.thread(conversationId, two.a.headers);
    expect(bodies(newest)).toEqual(Array.from({ length: 30 }, (_, i) => `seeded ${i + 6}`));
    expect(newest.json.pagination.hasMore).toBe(true);
    const older = await talk.thread(conversationId, two.a.headers, `?before=${newest.json.data[0].id}`);
    expect(bodies(older)).toEqual(["seeded 1", "seeded 2", "seeded 3", "seeded 4", "seeded 5"]);
    expect(older.json.pagination.hasMore).toBe(false);
    expect(bodies(await talk.thread(conversationId, two.a.headers, "?limit=2"))).toEqual(["seeded 34", "seeded 35"]);
    for (const qs of ["?limit=0", "?limit=101", "?limit=abc", "?before=nope"])
      expect((await talk.thread(conversationId, two.a.headers, qs)).status, qs).toBe(400);
    const elsewhere = await connected();
    const foreign = await talk.send(elsewhere.conversationId, { body: "elsewhere" }, elsewhere.one.a.headers);
    expect((await talk.thread(conversationId, two.a.headers, `?before=${foreign.json.data.id}`)).status).toBe(404);
  });

  it("dates each message after the one before it, so an open thread (ordered by date) shows it last, not above", async () => {
    const { one, two, conversationId } = await connected();
    const first = (await talk.send(conversationId, { body: "first" }, one.a.headers)).json.data;
    // The newest message dated a minute on, as a clock set back since (or the same millisecond) leaves it.
    const db = await getDb();
    const ahead = new Date(Date.parse(first.createdAt) + 60_000);
    await db.update(messages).set({ createdAt: ahead }).where(eq(messages.id, first.id));
    const next = (await talk.send(conversationId, { body: "second" }, two.a.headers)).json.data;
    expect(Date.parse(next.createdAt)).toBeGreaterThan(ahead.getTime());
    // As an open thread takes them: the page in order, and the live copy of the new one as new (shown last, not left out).
    const page = (await talk.thread(conversationId, one.b.headers)).json.data;
    expect(mergeMessages(page).map((m) => m.body)).toEqual(["first", "second"]);
    const conversation = (await talk.detail(conversationId, one.b.headers)).json.data;
    expect(isNewMessage({ conversation, messages: page.slice(0, 1), hasMore: false }, next)).toBe(true);
  });
});

/** GET of an image URL, as the browser's <img> would (with the person's cookie): status and headers. */
async function getImage(handler: typeof photoRoute, url: string, prefix: string, headers: Record<string, string>) {
  const request = new NextRequest(new URL(url, "http://localhost:3000"), { headers: { "x-forwarded-for": "203.0.113.7", ...headers } });
  const response = await handler(request, { params: Promise.resolve({ key: url.slice(prefix.length).split("/") }) });
  await response.arrayBuffer();
  return response;
}
const viewPhoto = (url: string, h: Headers, extra: Record<string, string> = {}) =>
  getImage(photoRoute, url, "/api/messages/photos/", { ...h, ...extra });

describe("a message sent again after its answer was lost", () => {
  it("answers the message sent under the composer's key, not a second one; another key sends the same words again", async () => {
    const { one, two, conversationId } = await connected();
    const clientKey = randomUUID();
    const first = await talk.send(conversationId, { body: "On our way", clientKey }, one.a.headers);
    expect(first.status).toBe(201);
    // The answer never arrived: 'Send' again, the same words under the same key.
    const again = await talk.send(conversationId, { body: "On our way", clientKey }, one.a.headers);
    expect(again.status).toBe(201);
    expect(again.json.data.id).toBe(first.json.data.id);
    expect(bodies(await talk.thread(conversationId, two.a.headers))).toEqual(["On our way"]);
    // Said twice on purpose (a new key each time the composer sends), it is two messages; nor is another's key one's own.
    expect((await talk.send(conversationId, { body: "On our way", clientKey: randomUUID() }, one.a.headers)).status).toBe(201);
    expect((await talk.send(conversationId, { body: "On our way", clientKey }, one.b.headers)).json.data.id).not.toBe(first.json.data.id);
    expect(bodies(await talk.thread(conversationId, two.a.headers))).toEqual(["On our way", "On our way", "On our way"]);
    const notices = await talk.inbox(two.a.headers);
    expect(notices.json.data[0].unreadCount).toBe(3);
    expect((await talk.send(conversationId, { body: "x", clientKey: "not-a-key" }, one.a.headers)).status).toBe(400);
  });
});

describe("message photos", () => {
  it("are served to the four only, never publicly or for long, and to nobody once erased", async () => {
    const { one, two, conversationId } = await connected();
    const jpeg = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#993366" } })
      .jpeg()
      .toBuffer();
    const url = (await uploadPhoto(one.a.headers, new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }))).json.data.url as string;
    const key = url.slice("/api/messages/photos/".length);
    // Before it is sent: its uploader only.
    expect((await viewPhoto(url, one.a.headers)).status).toBe(200);
    expect((await viewPhoto(url, one.b.headers)).status).toBe(404);
    const sent = await talk.send(conversationId, { body: "Look", photoUrl: url }, one.a.headers);
    const fifth = await messagingCouple();
    for (const person of [one.a, one.b, two.a, two.b]) {
      const seen = await viewPhoto(url, person.headers);
      expect(seen.status).toBe(200);
      expect(seen.headers.get("content-type")).toBe("image/jpeg");
      expect(seen.headers.get("cache-control")).toBe("private, no-cache");
      expect((await viewPhoto(url, person.headers, { "if-none-match": seen.headers.get("etag")! })).status).toBe(304);
    }
    expect((await viewPhoto(url, fifth.a.headers)).status).toBe(404);
    expect((await viewPhoto(url, {})).status).toBe(401);
    // The public image route never serves it, whoever knows the key.
    const publicly = await getImage(imageRoute, `/api/images/${key}`, "/api/images/", {});
    expect(publicly.status).toBe(404);
    expect((await talk.remove(sent.json.data.id, one.a.headers)).status).toBe(200);
    for (const person of [one.a, two.a]) {
      const gone = await viewPhoto(url, person.headers, { "if-none-match": `"${key}"` });
      expect(gone.status).toBe(404);
    }
  });
  it("are swept with their file when not sent within a day (sending one then says it expired); a sent one stays", async () => {
    const { one, conversationId } = await connected();
    const jpeg = new Uint8Array(
      await sharp({ create: { width: 64, height: 64, channels: 3, background: "#336699" } })
        .jpeg()
        .toBuffer(),
    );
    const upload = async () => (await uploadPhoto(one.a.headers, new Blob([jpeg], { type: "image/jpeg" }))).json.data.url as string;
    const [unsent, sent] = [await upload(), await upload()];
    expect((await talk.send(conversationId, { body: "Sent", photoUrl: sent }, one.a.headers)).status).toBe(201);
    expect((await runDueWork(await getDb(), new Date(Date.now() + 25 * 3_600_000))).swept).toBeGreaterThanOrEqual(1);
    expect((await viewPhoto(unsent, one.a.headers)).status).toBe(404);
    expect((await viewPhoto(sent, one.a.headers)).status).toBe(200);
    expect(await (await getDb()).select().from(messagePhotos).where(eq(messagePhotos.url, unsent))).toEqual([]);
    // A message kept unsent that long is refused with what to do.
    const late = await talk.send(conversationId, { body: "Late", photoUrl: unsent }, one.a.headers);
    expect(late.status).toBe(400);
    expect(late.json.error.message).toBe("This photo's upload has expired. Please add the photo again.");
  });
});

describe("read positions and unread counts", () => {
  it("are per person; own messages are never unread; a position never moves back", async () => {
    const { one, two, conversationId } = await connected();
    const first = await talk.send(conversationId, { body: "one" }, one.a.headers);
    const second = await talk.send(conversationId, { body: "two" }, one.b.headers);
    await talk.send(conversationId, { body: "mine" }, two.a.headers);
    expect((await talk.unread(two.a.headers)).json.data).toEqual({ unread_count: 2 });
    expect((await talk.unread(two.b.headers)).json.data).toEqual({ unread_count: 3 });
    expect((await talk.unread(one.a.headers)).json.data).toEqual({ unread_count: 2 });
    const read = await talk.read(conversationId, { upTo: first.json.data.id }, two.a.headers);
    expect(read.json.data).toEqual({ unreadCount: 1 });
    expect((await talk.read(conversationId, { upTo: second.json.data.id }, two.a.headers)).json.data).toEqual({ unreadCount: 0 });
    expect((await talk.read(conversationId, { upTo: first.json.data.id }, two.a.headers)).json.data).toEqual({ unreadCount: 0 });
    expect((await talk.unread(two.b.headers)).json.data).toEqual({ unread_count: 3 });
    const detail = await talk.detail(conversationId, one.a.headers);
    expect(detail.json.data.readPositions).toEqual([
      { userId: one.a.userId, firstName: one.a.firstName, lastReadMessageId: null },
      { userId: one.b.userId, firstName: one.b.firstName, lastReadMessageId: null },
      { userId: two.a.userId, firstName: two.a.firstName, lastReadMessageId: second.json.data.id },
      { userId: two.b.userId, firstName: two.b.firstName, lastReadMessageId: null },
    ]);
    expect(detail.json.data.couples.map((c: { id: string; partners: unknown[] }) => [c.id, c.partners.length])).toEqual([
      [one.coupleId, 2],
      [two.coupleId, 2],
    ]);
    expect(detail.json.data).toMatchObject({ id: conversationId, ended: false, muted: false });
    // Each reader's own couple comes first, and only their own mute shows.
    expect((await talk.mute(conversationId, true, two.a.headers)).json.data).toEqual({ muted: true });
    const fromTwo = (await talk.detail(conversationId, two.a.headers)).json.data;
    expect(fromTwo.couples.map((c: { id: string }) => c.id)).toEqual([two.coupleId, one.coupleId]);
    expect(fromTwo.readPositions.map((p: { userId: string }) => p.userId)).toEqual([
      two.a.userId,
      two.b.userId,
      one.a.userId,
      one.b.userId,
    ]);
    expect(fromTwo.muted).toBe(true);
    expect((await talk.detail(conversationId, two.b.headers)).json.data.muted).toBe(false);
    expect((await talk.mute(conversationId, false, two.a.headers)).json.data).toEqual({ muted: false });
    const inbox = await talk.inbox(two.b.headers);
    expect(inbox.json.data).toEqual([
      {
        id: conversationId,
        couple: { id: one.coupleId, coupleName: one.name, profileImageUrl: null },
        lastMessage: expect.objectContaining({ body: "mine", author: expect.objectContaining({ userId: two.a.userId }) }),
        unreadCount: 3,
        ended: false,
        updatedAt: expect.any(String),
      },
    ]);
    expect(inbox.json.pagination).toMatchObject({ hasMore: false, nextCursor: null });
  });

  it("the inbox's row carries the start of a long message, the thread the whole of it", async () => {
    const { one, two, conversationId } = await connected();
    const words = `${"We could meet at the market on Saturday morning. ".repeat(78)}See you there.`;
    expect((await talk.send(conversationId, { body: words }, one.a.headers)).status).toBe(201);
    const [row] = (await talk.inbox(two.a.headers)).json.data;
    expect(row.lastMessage.body).toBe(excerpt(words));
    expect(row.lastMessage.body.length).toBeLessThanOrEqual(201);
    expect(bodies(await talk.thread(conversationId, two.a.headers)).at(-1)).toBe(words);
  });

  it("refuses a read without upTo (400) or of another conversation's message (404)", async () => {
    const { one, conversationId } = await connected();
    const other = await connected();
    const foreign = await talk.send(other.conversationId, { body: "x" }, other.one.a.headers);
    expect((await talk.read(conversationId, {}, one.a.headers)).status).toBe(400);
    expect((await talk.read(conversationId, { upTo: "x" }, one.a.headers)).status).toBe(400);
    expect((await talk.read(conversationId, { upTo: foreign.json.data.id }, one.a.headers)).status).toBe(404);
  });

  it("refuses a read position on one's own message (400): a position is what one read of the others' (ARCHITECTURE.md), 'Seen by' never under one's own words", async () => {
    const { one, two, conversationId } = await connected();
    const theirs = await talk.send(conversationId, { body: "Dinner?" }, two.a.headers);
    expect((await talk.read(conversationId, { upTo: theirs.json.data.id }, one.a.headers)).status).toBe(200);
    const mine = await talk.send(conversationId, { body: "Yes please" }, one.a.headers);
    const refused = await talk.read(conversationId, { upTo: mine.json.data.id }, one.a.headers);
    expect(refused.status).toBe(400);
    expect(refused.json.error.fields).toEqual({ upTo: "upTo must be a message of the others" });
    const detail = await talk.detail(conversationId, one.a.headers);
    const position = (detail.json.data.readPositions as { userId: string; lastReadMessageId: string | null }[]).find(
      (read) => read.userId === one.a.userId,
    );
    expect(position?.lastReadMessageId, "still on the others' message").toBe(theirs.json.data.id);
    // The partner's words are the others' for them: read as any.
    expect((await talk.read(conversationId, { upTo: mine.json.data.id }, one.b.headers)).status).toBe(200);
  });
});

describe("notifications", () => {
  it("keep one unread 'message' notification per conversation, none while muted, and read to the end clears it", async () => {
    const { one, two, conversationId } = await connected();
    expect((await talk.mute(conversationId, true, two.b.headers)).json.data).toEqual({ muted: true });
    await talk.send(conversationId, { body: "first" }, one.a.headers);
    const last = await talk.send(conversationId, { body: "second" }, one.b.headers);
    const db = await getDb();
    const rows = () =>
      db
        .select({ userId: notifications.userId, title: notifications.title, message: notifications.message, isRead: notifications.isRead })
        .from(notifications)
        .where(and(eq(notifications.conversationId, conversationId), eq(notifications.type, "message")));
    const before = await rows();
    expect(before.map((r) => r.userId)).toEqual([two.a.userId]);
    expect(before.find((r) => r.userId === two.a.userId)).toMatchObject({
      title: `New messages from ${one.name}`,
      message: `${one.b.firstName} of ${one.name} sent a message`,
    });
    expect((await talk.unread(two.b.headers)).json.data.unread_count).toBe(2);
    await talk.read(conversationId, { upTo: last.json.data.id }, two.a.headers);
    expect((await rows()).find((r) => r.userId === two.a.userId)!.isRead).toBe(true);
    expect((await talk.mute(conversationId, false, two.b.headers)).json.data).toEqual({ muted: false });
    await talk.send(conversationId, { body: "third" }, one.a.headers);
    expect((await rows()).filter((r) => r.userId === two.b.userId)).toHaveLength(1);
    // A burst after the first was read brings the same row back, unread and naming the latest writer: one entry per conversation.
    await talk.send(conversationId, { body: "fourth" }, one.b.headers);
    const again = (await rows()).filter((r) => r.userId === two.a.userId);
    expect(again).toEqual([expect.objectContaining({ isRead: false, message: `${one.b.firstName} of ${one.name} sent a message` })]);
  });
});

describe("deleting a message", () => {
  it("lets only its author erase it: the others see it deleted, another member gets 403", async () => {
    const { one, two, conversationId } = await connected();
    const sent = await talk.send(conversationId, { body: "Oops" }, one.a.headers);
    const id = sent.json.data.id;
    expect((await talk.remove(id, one.b.headers)).status).toBe(403);
    expect((await talk.remove(id, two.a.headers)).status).toBe(403);
    expect((await talk.remove(id, one.a.headers)).json.data).toEqual({ id, deleted: true });
    expect((await talk.remove(id, one.a.headers)).status).toBe(200);
    const seen = (await talk.thread(conversationId, two.b.headers)).json.data[0];
    expect(seen).toMatchObject({ id, body: null, photoUrl: null, deleted: true });
    const db = await getDb();
    const [row] = await db.select({ body: messages.body }).from(messages).where(eq(messages.id, id));
    expect(row!.body).toBeNull();
    expect((await talk.remove(randomUUID(), one.a.headers)).status).toBe(404);
  });

  it("leaves no bell entry announcing messages that are gone: read once nothing it told of is left unread, kept while something is", async () => {
    const { one, two, conversationId } = await connected();
    const first = await talk.send(conversationId, { body: "Dinner on Friday?" }, one.a.headers);
    const second = await talk.send(conversationId, { body: "Oops, wrong couple" }, one.b.headers);
    const db = await getDb();
    const bells = async () => [await unreadCount(db, two.a.userId), await unreadCount(db, two.b.userId)];
    expect(await bells()).toEqual([1, 1]);
    // Two-a read the first: only the second is left unread for them; two-b has both.
    expect((await talk.read(conversationId, { upTo: first.json.data.id }, two.a.headers)).status).toBe(200);
    expect((await talk.remove(second.json.data.id, one.b.headers)).status).toBe(200);
    expect(await bells()).toEqual([0, 1]);
    expect((await talk.unread(two.a.headers)).json.data.unread_count).toBe(0);
    expect((await talk.unread(two.b.headers)).json.data.unread_count).toBe(1);
    expect((await talk.remove(first.json.data.id, one.a.headers)).status).toBe(200);
    expect(await bells()).toEqual([0, 0]);
    // The next message makes the entry unread again, as after any read.
    await talk.send(conversationId, { body: "Dinner on Saturday?" }, one.a.headers);
    expect(await bells()).toEqual([1, 1]);
  });
});

describe("blocking", () => {
  it("ends the conversation for both couples: readable, no new messages", async () => {
    const { one, two, conversationId } = await connected();
    await talk.send(conversationId, { body: "Before" }, two.a.headers);
    expect((await block(two.coupleId, one.b.headers)).status).toBe(200);
    for (const person of [one.a, two.b]) {
      expect((await talk.detail(conversationId, person.headers)).json.data.ended).toBe(true);
      expect(bodies(await talk.thread(conversationId, person.headers))).toEqual(["Before"]);
      const res = await talk.send(conversationId, { body: "After" }, person.headers);
      expect(res.status).toBe(403);
      expect(res.json.error).toEqual({ code: "CONVERSATION_ENDED", message: "This conversation has ended." });
    }
    expect((await talk.inbox(two.a.headers)).json.data[0].ended).toBe(true);
  });

  it("freezes what each couple sees of the other: no read or mute moves in an ended conversation, and nothing stays unread", async () => {
    const { one, two, conversationId } = await connected();
    const sent = await talk.send(conversationId, { body: "Before" }, two.a.headers);
    expect((await talk.unread(one.a.headers)).json.data.unread_count).toBe(1);
    expect((await block(two.coupleId, one.b.headers)).status).toBe(200);
    for (const person of [one.a, one.b, two.b]) {
      for (const res of [
        await talk.read(conversationId, { upTo: sent.json.data.id }, person.headers),
        await talk.mute(conversationId, true, person.headers),
        await talk.mute(conversationId, false, person.headers),
      ]) {
        expect(res.status).toBe(403);
        expect(res.json.error.code).toBe("CONVERSATION_ENDED");
      }
    }
    const seenByTheOthers = (await talk.detail(conversationId, two.b.headers)).json.data;
    expect(seenByTheOthers.readPositions.find((p: { userId: string }) => p.userId === one.a.userId).lastReadMessageId).toBeNull();
    expect(seenByTheOthers.muted).toBe(false);
    expect((await talk.unread(one.a.headers)).json.data.unread_count).toBe(0);
    expect((await talk.inbox(one.a.headers)).json.data[0]).toMatchObject({ ended: true, unreadCount: 0 });
  });

  it("shows each couple the other's names, not its photos, while a block stands; lifted, the photos are back", async () => {
    const { one, two, conversationId } = await connected();
    const db = await getDb();
    for (const couple of [one, two]) {
      await db
        .update(couples)
        .set({ profileImageUrl: `/api/images/couple-${couple.coupleId}.webp` })
        .where(eq(couples.id, couple.coupleId));
      await db
        .update(users)
        .set({ avatarUrl: sql`'/api/images/avatar-' || ${users.id} || '.webp'` })
        .where(inArray(users.id, [couple.a.userId, couple.b.userId]));
    }
    type Shown = {
      id: string;
      coupleName: string;
      profileImageUrl: string | null;
      partners: { firstName: string; avatarUrl: string | null }[];
    };
    const seenBy = async (headers: Headers) => {
      const [own, other] = (await talk.detail(conversationId, headers)).json.data.couples as Shown[];
      const listed = (await talk.inbox(headers)).json.data.find((row: { id: string }) => row.id === conversationId).couple;
      return { own: own!, other: other!, listed };
    };
    const photosOf = (couple: Shown) => [couple.profileImageUrl, ...couple.partners.map((partner) => partner.avatarUrl)];

    expect(photosOf((await seenBy(one.a.headers)).other).every(Boolean)).toBe(true);
    expect((await block(two.coupleId, one.b.headers)).status).toBe(200);
    for (const headers of [one.a.headers, two.b.headers]) {
      const { own, other, listed } = await seenBy(headers);
      expect(photosOf(other)).toEqual([null, null, null]);
      expect(other.coupleName).not.toBe("");
      expect(other.partners.map((partner) => partner.firstName).every(Boolean)).toBe(true);
      expect(listed).toMatchObject({ id: other.id, coupleName: other.coupleName, profileImageUrl: null });
      expect(photosOf(own).every(Boolean)).toBe(true);
    }
    expect((await unblock(two.coupleId, one.b.headers)).status).toBe(200);
    const { other, listed } = await seenBy(two.a.headers);
    expect(photosOf(other).every(Boolean)).toBe(true);
    expect(listed.profileImageUrl).toBe(other.profileImageUrl);

    // A suspension (its status, as lib/safety/sanctions.ts sets it) hides them the same way.
    await db.update(couples).set({ status: "suspended" }).where(eq(couples.id, two.coupleId));
    const suspended = await seenBy(one.a.headers);
    expect(photosOf(suspended.other)).toEqual([null, null, null]);
    expect(suspended.listed.profileImageUrl).toBeNull();
  });
});

describe("rate limits", () => {
  it("answer the 31st message of a minute with 429 and Retry-After", async () => {
    const { one, conversationId } = await connected();
    for (let i = 0; i < 30; i++) expect((await talk.send(conversationId, { body: `m${i}` }, one.a.headers)).status).toBe(201);
    const res = await talk.send(conversationId, { body: "too many" }, one.a.headers);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await talk.send(conversationId, { body: "partner" }, one.b.headers)).status).toBe(201);
  });

  it("answer the 501st message of a day with 429", async () => {
    const { one, conversationId } = await connected();
    const db = await getDb();
    const earlier = new Date(Date.now() - 60 * 60 * 1000);
    await db
      .insert(rateLimitHits)
      .values(Array.from({ length: 500 }, () => ({ bucket: MESSAGE_LIMITS.perDay.bucket, subject: one.a.userId, createdAt: earlier })));
    expect((await talk.send(conversationId, { body: "one more" }, one.a.headers)).status).toBe(429);
    await db.delete(rateLimitHits).where(inArray(rateLimitHits.subject, [one.a.userId]));
  });
});
