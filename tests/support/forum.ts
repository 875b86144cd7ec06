/** Helpers of the forum integration tests: couples straight in the database, and the forum's calls. */
import { GET as listRoute, POST as createRoute } from "@/app/api/forum/posts/route";
import { DELETE as deletePostRoute, GET as threadRoute, PATCH as patchPostRoute } from "@/app/api/forum/posts/[id]/route";
import { POST as replyRoute } from "@/app/api/forum/posts/[id]/replies/route";
import { DELETE as unreactPostRoute, PUT as reactPostRoute } from "@/app/api/forum/posts/[id]/reactions/[kind]/route";
import { DELETE as deleteReplyRoute, PATCH as patchReplyRoute } from "@/app/api/forum/replies/[id]/route";
import { DELETE as unreactReplyRoute, PUT as reactReplyRoute } from "@/app/api/forum/replies/[id]/reactions/[kind]/route";
import { getDb } from "@/db/client";
import { couples, forumPosts, locations } from "@/db/schema";
import type { PrivacyLevel } from "@/lib/locations/privacy";
import { browserSession, call, createUser } from "./api";

export type Headers = Record<string, string>;
export type Person = { userId: string; firstName: string; headers: Headers };
export type TestCouple = { coupleId: string; name: string; a: Person; b: Person };
export type Place = { lat: number; lng: number; city: string; country: string; level?: PrivacyLevel };

export const LISBON: Place = { lat: 38.71667, lng: -9.13333, city: "Lisbon", country: "Portugal" };
/** About 20 km from Lisbon. */
export const SINTRA: Place = { lat: 38.80097, lng: -9.37826, city: "Sintra", country: "Portugal" };
/** About 275 km from Lisbon. */
export const PORTO: Place = { lat: 41.14961, lng: -8.61099, city: "Porto", country: "Portugal" };

let counter = 0;

async function person(firstName: string): Promise<Person> {
  const user = await createUser({ firstName, occupation: "Engineer" });
  const session = await browserSession(user.id);
  return { userId: user.id, firstName, headers: { cookie: session.cookie, "x-csrf-token": session.csrf } };
}

/** A complete couple of two partners, visible, optionally with a place (city level unless told). */
export async function forumCouple(options: { place?: Place; visible?: boolean; name?: string } = {}): Promise<TestCouple> {
  const n = ++counter;
  const a = await person(`Ana${n}`);
  const b = await person(`Rui${n}`);
  const name = options.name ?? `${a.firstName} & ${b.firstName}`;
  const db = await getDb();
  const [couple] = await db
    .insert(couples)
    .values({
      partner1Id: a.userId,
      partner2Id: b.userId,
      coupleName: name,
      isVisible: options.visible ?? true,
      isVerified: true,
      partnerAVerified: true,
      partnerBVerified: true,
    })
    .returning({ id: couples.id });
  if (options.place) {
    const { lat, lng, city, country, level = "city" } = options.place;
    await db.insert(locations).values({
      entityType: "couple",
      entityId: couple!.id,
      placeId: `test:${city}`,
      displayLocation: `Rua Exacta 1, ${city}`,
      latitude: lat,
      longitude: lng,
      city,
      country,
      privacyLevel: level,
    });
  }
  return { coupleId: couple!.id, name, a, b };
}

export const postBody = (overrides: Record<string, unknown> = {}) => ({
  title: "Weekend in Sintra",
  body: `We found a quiet trail behind the palace. ${++counter}`,
  topic: "travel",
  scope: "global",
  ...overrides,
});

/** A body naming these couples after '@', with their ids: a post's or reply's mentions as the composer sends them. */
export const mentioning = (...named: TestCouple[]) => ({
  body: `Hello ${named.map((couple) => `@${couple.name}`).join(" ")} ${++counter}`,
  mentions: named.map((couple) => couple.coupleId),
});

/** Posts straight in the database (no rate limit), one second apart, the last one the newest. */
export async function seedPosts(
  coupleId: string,
  authorUserId: string,
  count: number,
  values: Partial<typeof forumPosts.$inferInsert> = {},
) {
  const db = await getDb();
  const start = Date.now() - count * 1000;
  return db
    .insert(forumPosts)
    .values(
      Array.from({ length: count }, (_, i) => ({
        authorUserId,
        coupleId,
        scope: "global" as const,
        topic: "food_drink" as const,
        title: `Seeded post ${i + 1}`,
        body: `Body of seeded post ${i + 1}`,
        createdAt: new Date(start + i * 1000),
        lastActivityAt: new Date(start + i * 1000),
        ...values,
      })),
    )
    .returning({ id: forumPosts.id });
}

const enc = encodeURIComponent;
export const forum = {
  list: (qs: string, h: Headers) => call(listRoute, "GET", `/api/forum/posts${qs}`, { headers: h }),
  create: (body: unknown, h: Headers) => call(createRoute, "POST", "/api/forum/posts", { body, headers: h }),
  thread: (id: string, h: Headers, qs = "") => call(threadRoute, "GET", `/api/forum/posts/${enc(id)}${qs}`, { headers: h, params: { id } }),
  patch: (id: string, body: unknown, h: Headers) =>
    call(patchPostRoute, "PATCH", `/api/forum/posts/${enc(id)}`, { body, headers: h, params: { id } }),
  remove: (id: string, h: Headers) => call(deletePostRoute, "DELETE", `/api/forum/posts/${enc(id)}`, { headers: h, params: { id } }),
  reply: (id: string, body: unknown, h: Headers) =>
    call(replyRoute, "POST", `/api/forum/posts/${enc(id)}/replies`, { body, headers: h, params: { id } }),
  patchReply: (id: string, body: unknown, h: Headers) =>
    call(patchReplyRoute, "PATCH", `/api/forum/replies/${enc(id)}`, { body, headers: h, params: { id } }),
  removeReply: (id: string, h: Headers) =>
    call(deleteReplyRoute, "DELETE", `/api/forum/replies/${enc(id)}`, { headers: h, params: { id } }),
  react: (target: "post" | "reply", id: string, kind: string, on: boolean, h: Headers) =>
    call(
      target === "post" ? (on ? reactPostRoute : unreactPostRoute) : on ? reactReplyRoute : unreactReplyRoute,
      on ? "PUT" : "DELETE",
      `/api/forum/${target === "post" ? "posts" : "replies"}/${enc(id)}/reactions/${enc(kind)}`,
      { headers: h, params: { id, kind } },
    ),
};
