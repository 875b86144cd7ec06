import { eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { POST as sendMessageRoute } from "@/app/api/conversations/[id]/messages/route";
import { POST as photosRoute } from "@/app/api/messages/photos/route";
import { getDb } from "@/db/client";
import { messages, rateLimitHits } from "@/db/schema";
import { BODY_MAX, TITLE_MAX } from "@/lib/forum/rules";
import { BODY_MAX as MESSAGE_MAX, MESSAGE_LIMITS } from "@/lib/messages/rules";
import { call } from "../support/api";
import { forum, postBody, type Headers } from "../support/forum";
import { connected, messagingCouple, talk } from "../support/messages";

/** A request whose body starts and never ends: answered before the body is read, or only at the 30 s body deadline. */
function endlessRequest(path: string, headers: Headers, contentType: string): NextRequest {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(contentType.startsWith("multipart") ? "--x\r\n" : '{"body":"'));
    },
  });
  return new NextRequest(new URL(path, "http://localhost:3000"), {
    method: "POST",
    headers: { ...headers, "content-type": contentType, "x-forwarded-for": "203.0.113.9" },
    body,
    duplex: "half",
  } as ConstructorParameters<typeof NextRequest>[1]);
}

const withinSeconds = <T>(promise: Promise<T>, seconds: number) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${seconds} s`)), seconds * 1000)),
  ]);

/** Fills the person's bucket of `limit` straight in the database. */
async function spendAll(limit: { bucket: string; limit: number }, userId: string) {
  const db = await getDb();
  await db.insert(rateLimitHits).values(Array.from({ length: limit.limit }, () => ({ bucket: limit.bucket, subject: userId })));
}

describe("request bodies", () => {
  it("refuses a JSON body past the call's size with 413 before parsing it, and stores nothing", async () => {
    const { one, conversationId } = await connected();
    const keys = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]));
    const res = await talk.send(conversationId, { body: "hello", ...keys }, one.a.headers);
    expect(res.status).toBe(413);
    expect(res.json.error.code).toBe("PAYLOAD_TOO_LARGE");
    const db = await getDb();
    expect(await db.select({ id: messages.id }).from(messages).where(eq(messages.conversationId, conversationId))).toEqual([]);
  });

  it("reads a body only when it is sent as JSON: a page of another site cannot send one without the browser asking first", async () => {
    const { one, conversationId } = await connected();
    const db = await getDb();
    const text = JSON.stringify({ body: "Sent from another site" });
    const sendAs = (type: string | null) =>
      call(sendMessageRoute, "POST", `/api/conversations/${conversationId}/messages`, {
        rawBody: text,
        headers: { ...one.a.headers, ...(type === null ? {} : { "content-type": type }) },
        params: { id: conversationId },
      });
    for (const type of ["text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""]) {
      const refused = await sendAs(type);
      expect(refused.status, type).toBe(400);
      expect(refused.json.error.message).toBe("The request body must be sent as JSON (Content-Type: application/json).");
    }
    expect(await db.select().from(messages).where(eq(messages.conversationId, conversationId))).toHaveLength(0);
    for (const type of ["application/json", "application/json; charset=utf-8", "application/merge-patch+json"])
      expect((await sendAs(type)).status, type).toBe(201);
  });

  it("still takes the longest valid message and the longest valid post, in three-byte characters", async () => {
    const { one, conversationId } = await connected();
    expect((await talk.send(conversationId, { body: "€".repeat(MESSAGE_MAX) }, one.a.headers)).status).toBe(201);
    const poster = await messagingCouple();
    const post = await forum.create(postBody({ title: "€".repeat(TITLE_MAX), body: "€".repeat(BODY_MAX) }), poster.a.headers);
    expect(post.status).toBe(201);
  });

  it("answers a caller over their message limit with 429 before reading what they send", async () => {
    const { one, conversationId } = await connected();
    await spendAll(MESSAGE_LIMITS.perMinute, one.a.userId);
    const path = `/api/conversations/${conversationId}/messages`;
    const res = await withinSeconds(
      sendMessageRoute(endlessRequest(path, one.a.headers, "application/json"), {
        params: Promise.resolve({ id: conversationId } as never),
      }),
      5,
    );
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    // Their partner is under the limit: the same call goes through.
    expect((await talk.send(conversationId, { body: "from the partner" }, one.b.headers)).status).toBe(201);
  });

  it("answers a caller over their photo limit with 429 before reading the photo", async () => {
    const { one } = await connected();
    await spendAll(MESSAGE_LIMITS.photosPerHour, one.a.userId);
    const request = endlessRequest("/api/messages/photos", one.a.headers, "multipart/form-data; boundary=x");
    const res = await withinSeconds(photosRoute(request, { params: Promise.resolve({} as never) }), 5);
    expect(res.status).toBe(429);
    const answered = await res.json();
    expect(answered.error.message).toBe(MESSAGE_LIMITS.photosPerHour.message);
    expect((await call(photosRoute, "POST", "/api/messages/photos", { headers: one.b.headers, rawBody: "" })).status).toBe(400);
  });
});
