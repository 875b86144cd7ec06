import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as exportRoute } from "@/app/api/account/export/route";
import { getDb } from "@/db/client";
import { resultRows } from "@/db/result-rows";
import { EXPORT_PAGE_SIZE, exportAccount, streamAccountExport } from "@/lib/account/export";
import { freshAddress } from "../support/api";
import type { Headers } from "../support/forum";
import { connected } from "../support/messages";
import { NextRequest } from "next/server";

const MORE_THAN_A_PAGE = EXPORT_PAGE_SIZE + 5;

/** The export's response, its body unread. */
const exportResponse = (headers: Headers) =>
  exportRoute(
    new NextRequest("http://localhost:3000/api/account/export", {
      headers: { cookie: headers.cookie!, "x-forwarded-for": freshAddress() },
    }),
    { params: Promise.resolve({} as never) },
  );

/**
 * More messages than a page, three to each millisecond (their column's precision), every
 * hundredth with a photo; and more notifications, reactions to forum replies and reactions to
 * messages than a page, three to each microsecond (a JavaScript Date cannot tell a thousand of
 * them apart), the message reactions two kinds to a message (the kind orders reactions of one time).
 */
async function longHistory() {
  const { one, conversationId } = await connected();
  const db = await getDb();
  await db.execute(sql`
    insert into messages (conversation_id, author_user_id, author_couple_id, body, photo_url, created_at)
    select ${conversationId}, ${one.a.userId}, ${one.coupleId}, 'Message ' || i,
           case when i % 100 = 0 then '/uploads/messages/m' || i || '.jpg' end,
           timestamptz '2026-01-01 10:00:00+00' + (i / 3) * interval '1 millisecond'
    from generate_series(1, ${MORE_THAN_A_PAGE}) as i`);
  await db.execute(sql`
    insert into notifications (user_id, type, title, message, created_at)
    select ${one.a.userId}, 'forum_reply', 'Reply ' || i, 'A reply to your post',
           timestamptz '2026-01-01 10:00:00+00' + (i / 3) * interval '1 microsecond'
    from generate_series(1, ${MORE_THAN_A_PAGE}) as i`);
  await db.execute(sql`
    with post as (
      insert into forum_posts (author_user_id, couple_id, scope, topic, title, body)
      values (${one.a.userId}, ${one.coupleId}, 'global', 'travel', 'A long thread', 'Replies follow')
      returning id
    ), replies as (
      insert into forum_replies (post_id, author_user_id, couple_id, body)
      select post.id, ${one.a.userId}, ${one.coupleId}, 'Reply ' || i from post, generate_series(1, ${MORE_THAN_A_PAGE}) as i
      returning id, post_id
    )
    insert into forum_reactions (post_id, reply_id, user_id, couple_id, kind, created_at)
    select post_id, id, ${one.a.userId}, ${one.coupleId}, 'heart',
           timestamptz '2026-01-01 10:00:00+00' + (row_number() over () / 3) * interval '1 microsecond'
    from replies`);
  await db.execute(sql`
    insert into message_reactions (message_id, user_id, kind, created_at)
    select m.id, ${one.a.userId}, k.kind::reaction_kind,
           timestamptz '2026-01-01 10:00:00+00' + (row_number() over (order by m.id, k.kind) / 3) * interval '1 microsecond'
    from (select id from messages where author_user_id = ${one.a.userId} limit ${Math.ceil(MORE_THAN_A_PAGE / 2)}) as m,
         (values ('heart'), ('hug')) as k(kind)
    -- Written out of order: reactions of one time are not read back in their key's order by chance.
    order by random()`);
  const ids = async (query: ReturnType<typeof sql>) => resultRows<{ id: string }>(await db.execute(query)).map((row) => row.id);
  const photos = resultRows<{ photo_url: string }>(
    await db.execute(
      sql`select photo_url from messages where author_user_id = ${one.a.userId} and photo_url is not null order by created_at, id`,
    ),
  ).map((row) => row.photo_url);
  return {
    person: one.a,
    photos,
    messageIds: await ids(sql`select id from messages where author_user_id = ${one.a.userId} order by created_at, id`),
    notificationIds: await ids(sql`select id from notifications where user_id = ${one.a.userId} order by created_at desc, id desc`),
    reactionIds: await ids(sql`select id from forum_reactions where user_id = ${one.a.userId} order by created_at desc, id desc`),
    messageReactionKeys: resultRows<{ key: string }>(
      await db.execute(
        sql`select message_id || ' ' || kind as key from message_reactions where user_id = ${one.a.userId} order by created_at, message_id, kind`,
      ),
    ).map((row) => row.key),
  };
}

/** The transactions left open on this test file's database (postgres.js; PGlite has no other sessions). */
const openTransactions = async () =>
  resultRows<{ open: number }>(
    await (
      await getDb()
    ).execute(
      sql`select count(*)::int as open from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`,
    ),
  )[0]!.open;

describe("'Download my data' of a long history, read a page at a time", () => {
  it("writes every message and message reaction once, oldest first, and every notification and forum reaction, newest first, however many pages they take, as the whole document", async () => {
    const { person, messageIds, notificationIds, reactionIds, messageReactionKeys, photos } = await longHistory();
    expect(Math.min(reactionIds.length, messageReactionKeys.length)).toBeGreaterThan(EXPORT_PAGE_SIZE);
    const response = await exportResponse(person.headers);
    expect(response.status).toBe(200);
    const text = await response.text();
    const streamed = JSON.parse(text);
    const idsOf = (list: { id: string }[]) => list.map((row) => row.id);
    expect(idsOf(streamed.messages)).toEqual(messageIds);
    expect(idsOf(streamed.notifications)).toEqual(notificationIds);
    expect(idsOf(streamed.reactions)).toEqual(reactionIds);
    expect(streamed.messageReactions.map((row: { messageId: string; kind: string }) => `${row.messageId} ${row.kind}`)).toEqual(
      messageReactionKeys,
    );
    expect(streamed.imageUrls).toEqual(expect.arrayContaining(photos));
    expect(streamed.imageUrls.filter((url: string) => url.startsWith("/uploads/messages/"))).toEqual(photos);

    // The same document as the values read whole, written as JSON writes it (the time of the export aside).
    const whole = JSON.parse(JSON.stringify(await exportAccount(await getDb(), person.userId)));
    expect({ ...streamed, exportedAt: null }).toEqual({ ...whole, exportedAt: null });
    expect(text).toBe(JSON.stringify(streamed, null, 2));
  });

  it.skipIf(!process.env.DATABASE_URL)("ends its transaction when the client goes away mid-download", async () => {
    const { person } = await longHistory();
    const before = await openTransactions();
    const response = await exportResponse(person.headers);
    const reader = response.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    // Mid-stream: the snapshot is held while the pages are written.
    expect(await openTransactions()).toBe(before + 1);

    await reader.cancel();
    await expect.poll(openTransactions).toBe(before);
    // And the pool answers again.
    expect(resultRows(await (await getDb()).execute(sql`select 1 as one`))).toEqual([{ one: 1 }]);
  });

  it.skipIf(!process.env.DATABASE_URL)("lets go of its snapshot after its time, however slowly the client reads", async () => {
    const { person } = await longHistory();
    const before = await openTransactions();
    const { body } = await streamAccountExport(await getDb(), person.userId, 300);
    const reader = body.getReader();
    expect((await reader.read()).done).toBe(false);
    expect(await openTransactions()).toBe(before + 1);
    // The client reads nothing more and stays: the connection comes back all the same.
    await expect.poll(openTransactions, { timeout: 5_000 }).toBe(before);
    const drain = async () => {
      for (let part = await reader.read(); !part.done; part = await reader.read());
    };
    await expect(drain()).rejects.toThrow();
  });

  it.skipIf(!process.env.DATABASE_URL)("ends its response with an error, and its transaction, when a page cannot be read", async () => {
    const { person } = await longHistory();
    const before = await openTransactions();
    const response = await exportResponse(person.headers);
    const reader = response.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    // The export's connection is cut mid-download (the database restarted, say).
    await (
      await getDb()
    ).execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`,
    );
    const drain = async () => {
      for (let part = await reader.read(); !part.done; part = await reader.read());
    };
    await expect(drain()).rejects.toThrow();
    await expect.poll(openTransactions).toBe(before);
  });
});
