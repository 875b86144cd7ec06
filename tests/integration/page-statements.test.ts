import type { ReactNode } from "react";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { locations } from "@/db/schema";
import { browserSession } from "../support/api";
import { forum, forumCouple, LISBON, postBody, SINTRA, type Place, type TestCouple } from "../support/forum";
import { connected, talk } from "../support/messages";
import { renderOnServer } from "../support/server-render";
import type { countingDatabase } from "../support/statement-count";
import { onPostgres } from "../support/test-database";

/**
 * The server work of each signed-in page, counted rather than timed: the statements one render
 * sends, the round trips it waits in turn (the (app) layout and the page run side by side, as
 * Next.js runs them), and the bytes of props it hands its client components (the RSC payload's
 * data). Measured on the second render of a page, as a server in use answers it (the stored
 * lists made, the session touched): a regression adds a statement, a round trip or bytes here.
 */
const request = vi.hoisted(() => ({ cookie: "", cached: new Map<unknown, Map<string, unknown>>() }));
const counting = vi.hoisted(() => ({
  handle: undefined as undefined | ReturnType<typeof countingDatabase>,
}));

vi.mock("next/headers", () => ({
  cookies: async () => {
    const [name, value] = request.cookie.split(/=(.*)/s);
    return { get: (wanted: string) => (wanted === name ? { name, value } : undefined) };
  },
  headers: async () => new Headers(),
}));

// Auth.js is not involved: guarded pages read the cookie themselves.
vi.mock("@/lib/auth/auth", () => ({ auth: async () => null, signIn: async () => {}, signOut: async () => {} }));

// React's cache() is per request on the server; outside one it would not cache at all.
vi.mock("react", async (importOriginal) => {
  const actual = await importOriginal<typeof import("react")>();
  const cache = <A extends unknown[], R>(fn: (...args: A) => R) =>
    ((...args: A) => {
      let calls = request.cached.get(fn);
      if (!calls) request.cached.set(fn, (calls = new Map()));
      const key = JSON.stringify(args);
      if (!calls.has(key)) calls.set(key, fn(...args));
      return calls.get(key) as R;
    }) as (...args: A) => R;
  // useId is a server component's hook too (a form field's label): one id per call.
  let ids = 0;
  const useId = () => `_r_${(ids++).toString(36)}_`;
  return { ...actual, default: { ...actual, cache, useId }, cache, useId };
});

// The pages' database is a counting handle on the test's own database (migrated first by the real one).
vi.mock("@/db/client", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/db/client")>();
  const { countingDatabase } = await import("../support/statement-count");
  return {
    ...actual,
    getDb: async () => {
      if (!process.env.DATABASE_URL) return actual.getDb();
      if (!counting.handle) {
        await actual.getDb();
        counting.handle = countingDatabase(process.env.DATABASE_URL);
      }
      return counting.handle.db;
    },
  };
});

const { default: AppLayout } = await import("@/app/(app)/layout");
const { default: DashboardPage } = await import("@/app/(app)/dashboard/page");
const { default: GlobalForumPage } = await import("@/app/(app)/forum/page");
const { default: MessagesLayout } = await import("@/app/(app)/messages/layout");
const { default: ConversationPage } = await import("@/app/(app)/messages/[conversationId]/page");
const { default: DirectoryPage } = await import("@/app/(app)/directory/page");
const { default: OwnProfilePage } = await import("@/app/(app)/profile/page");
const { default: CoupleProfilePage } = await import("@/app/(app)/profile/[coupleId]/page");
const { default: DiscoverPage } = await import("@/app/(app)/discover/page");

type Work = {
  statements: number;
  rounds: number;
  payloadBytes: number;
  sent: string[];
  clientProps: { component: string; bytes: number }[];
};

/** One request for `cookie`: its segments started at once, as Next.js starts a layout and its page. */
async function render(cookie: string, segments: () => (ReactNode | Promise<ReactNode>)[]): Promise<Work> {
  const { getDb } = await import("@/db/client");
  await getDb();
  const handle = counting.handle!;
  request.cookie = cookie;
  request.cached = new Map();
  handle.reset();
  const { payloadBytes, clientProps } = await renderOnServer(segments());
  return {
    statements: handle.statements(),
    rounds: handle.rounds(),
    payloadBytes,
    clientProps,
    sent: handle.sent().map((s) => `${s.depth} ${s.text.slice(0, 140)}`),
  };
}

/** The second render of the same request (the first warms what a server in use has warm). */
async function measured(cookie: string, segments: () => (ReactNode | Promise<ReactNode>)[]): Promise<Work> {
  await render(cookie, segments);
  return render(cookie, segments);
}

const none = Promise.resolve({});
const app = (page: () => ReactNode | Promise<ReactNode>) => () => [AppLayout({ children: null }), page()];

async function placed(couple: TestCouple, place: Place) {
  const { getDb } = await import("@/db/client");
  await (await getDb()).insert(locations).values({
    entityType: "couple",
    entityId: couple.coupleId,
    placeId: `test:${place.city}`,
    displayLocation: place.city,
    latitude: place.lat,
    longitude: place.lng,
    city: place.city,
    country: place.country,
    privacyLevel: "city",
  });
}

let cookie = "";
let conversationId = "";
let other: TestCouple;

beforeAll(async () => {
  if (!onPostgres()) return;
  const pair = await connected();
  conversationId = pair.conversationId;
  other = pair.two;
  await placed(pair.one, LISBON);
  await placed(pair.two, SINTRA);
  for (let i = 0; i < 4; i++) await forumCouple({ place: i % 2 ? LISBON : SINTRA });
  for (let i = 0; i < 6; i++) await talk.send(conversationId, { body: `Message ${i}` }, i % 2 ? pair.two.a.headers : pair.one.a.headers);
  for (let i = 0; i < 3; i++) {
    const post = await forum.create(postBody({ title: `Post ${i}` }), (i % 2 ? pair.two : pair.one).a.headers);
    await forum.react("post", post.json.data.id, "hug", true, pair.two.b.headers);
  }
  await forum.create(postBody({ title: "Local", scope: "local" }), pair.two.a.headers);
  cookie = (await browserSession(pair.one.a.userId)).cookie;
});

afterAll(async () => {
  await counting.handle?.end();
});

/**
 * Each page's work as a server in use does it. Statements: the session's read (with the acting
 * couple and its notices, cached for the layout and the page) and the page's own; round trips: the
 * session's, then the page's reads side by side (a read that needs another's answer adds one).
 * Payload: an upper bound on the bytes of data handed to client components for this file's data.
 */
const EXPECTED: [string, { statements: number; rounds: number; payloadBytes: number }, () => (ReactNode | Promise<ReactNode>)[]][] = [
  ["(app) layout alone", { statements: 1, rounds: 1, payloadBytes: 300 }, () => [AppLayout({ children: null })]],
  // The overview, the stored lists' read, the global posts; then the cards' connections and the local posts (around the lists' place).
  ["/dashboard", { statements: 6, rounds: 3, payloadBytes: 4_200 }, app(() => DashboardPage({ searchParams: none }))],
  ["/forum", { statements: 2, rounds: 2, payloadBytes: 2_400 }, app(() => GlobalForumPage({ searchParams: none }))],
  // The inbox, the requests (and their senders' facts), the upcoming plans, the opening and the conversation's plans, side by side.
  [
    "/messages/[id]",
    { statements: 7, rounds: 2, payloadBytes: 5_400 },
    () => [
      AppLayout({ children: null }),
      MessagesLayout({ children: null }),
      ConversationPage({ params: Promise.resolve({ conversationId }) }),
    ],
  ],
  // The viewer's couple, then the nearest measured couples, then those without a shown point (each with its connection).
  ["/directory", { statements: 4, rounds: 4, payloadBytes: 2_100 }, app(() => DirectoryPage({ searchParams: none }))],
  ["/profile", { statements: 2, rounds: 2, payloadBytes: 450 }, app(() => OwnProfilePage())],
  [
    "/profile/[id]",
    { statements: 5, rounds: 2, payloadBytes: 1_200 },
    app(() => CoupleProfilePage({ params: Promise.resolve({ coupleId: other.coupleId }) })),
  ],
  // The stored lists' read, then the shown cards' connections.
  ["/discover", { statements: 3, rounds: 3, payloadBytes: 1_700 }, app(() => DiscoverPage())],
];

describe.skipIf(!onPostgres())("a signed-in page's server work", () => {
  it.each(EXPECTED)("%s", async (name, expected, segments) => {
    const work = await measured(cookie, segments);
    const shown = `${name}: ${work.sent.join("\n")}\n${JSON.stringify(work.clientProps)}`;
    expect({ statements: work.statements, rounds: work.rounds }, shown).toEqual({
      statements: expected.statements,
      rounds: expected.rounds,
    });
    expect(work.payloadBytes, shown).toBeLessThanOrEqual(expected.payloadBytes);
  });

  it("touches a session beside its read: a render that writes the session's last use waits no extra round trip", async () => {
    const fresh = (await browserSession(other.a.userId)).cookie;
    const segments = app(() => OwnProfilePage());
    const touching = await render(fresh, segments);
    const after = await render(fresh, segments);
    expect(touching.sent.some((text) => text.includes('update "sessions"'))).toBe(true);
    expect(after.sent.some((text) => text.includes('update "sessions"'))).toBe(false);
    expect(touching.statements).toBe(after.statements + 1);
    expect(touching.rounds).toBe(after.rounds);
  });
});
