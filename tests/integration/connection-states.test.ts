import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { connectionRequests, couples, liveEvents } from "@/db/schema";
import { ASK_AGAIN_DAYS, REQUEST_EXPIRY_DAYS } from "@/lib/connections/rules";
import { senderFacts } from "@/lib/connections/sender-facts";
import { connectionStates, stateOf } from "@/lib/connections/states";
import { render } from "@/lib/live/queries";
import { LIVE_REGISTRY } from "@/lib/registry/live";
import { forumCouple } from "../support/forum";
import { named, openStream } from "../support/live";
import { block, connected, connections, messagingCouple } from "../support/messages";

const DAY = 24 * 60 * 60 * 1000;

/** Where two couples stand, as the viewer's cards and profiles read it. */
async function states(viewerCoupleId: string, ...coupleIds: string[]) {
  const found = await connectionStates(await getDb(), viewerCoupleId, coupleIds);
  return coupleIds.map((id) => stateOf(found, id).state);
}

describe("connectionStates: 'Say hello', 'Request sent' or 'Message' on every card", () => {
  it("reads a sent request, a received one and an open conversation, for the whole list at once", async () => {
    const us = await messagingCouple();
    const asked = await messagingCouple();
    const asking = await messagingCouple();
    const friends = await messagingCouple();
    const stranger = await messagingCouple();
    await connections.send({ coupleId: asked.coupleId, note: "Hello there" }, us.a.headers);
    await connections.send({ coupleId: us.coupleId, note: "Hello you" }, asking.a.headers);
    const sent = await connections.send({ coupleId: friends.coupleId, note: "Coffee?" }, us.b.headers);
    const accepted = await connections.accept(sent.json.data.id, friends.b.headers);

    expect(await states(us.coupleId, asked.coupleId, asking.coupleId, friends.coupleId, stranger.coupleId, us.coupleId)).toEqual([
      "requested",
      "incoming",
      "connected",
      "none",
      "none",
    ]);
    const found = await connectionStates(await getDb(), us.coupleId, [friends.coupleId]);
    expect(found.get(friends.coupleId)).toEqual({ state: "connected", conversationId: accepted.json.data.conversationId });
    // The other side of each.
    expect(await states(asked.coupleId, us.coupleId)).toEqual(["incoming"]);
    expect(await states(friends.coupleId, us.coupleId)).toEqual(["connected"]);
  });

  it("keeps a declined request 'sent' for the sender (declining is silent); the couple who declined may not say hello back yet", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple();
    const sent = await connections.send({ coupleId: them.coupleId, note: "Hello there" }, us.a.headers);
    expect((await connections.decline(sent.json.data.id, them.a.headers)).status).toBe(200);
    expect(await states(us.coupleId, them.coupleId)).toEqual(["requested"]);
    expect(await states(them.coupleId, us.coupleId)).toEqual(["later"]);
    expect((await connections.send({ coupleId: us.coupleId, note: "Hello back" }, them.b.headers)).status).toBe(409);
  });

  it("offers 'Say hello' exactly when a hello may be sent: not after the last one expired, from 90 days after it", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple();
    const sent = await connections.send({ coupleId: them.coupleId, note: "Hello there" }, us.a.headers);
    const db = await getDb();
    const sentAgo = (days: number) => {
      const at = new Date(Date.now() - days * DAY);
      return db
        .update(connectionRequests)
        .set({ createdAt: at, expiresAt: new Date(at.getTime() + REQUEST_EXPIRY_DAYS * DAY) })
        .where(eq(connectionRequests.id, sent.json.data.id));
    };
    // Expired unanswered (the index's `openSince` window is behind it), yet under ASK_AGAIN_DAYS old.
    await sentAgo(REQUEST_EXPIRY_DAYS + 1);
    expect(await states(us.coupleId, them.coupleId)).toEqual(["later"]);
    expect(await states(them.coupleId, us.coupleId)).toEqual(["later"]);
    for (const [from, to] of [
      [us, them],
      [them, us],
    ])
      expect((await connections.send({ coupleId: to!.coupleId, note: "Hello again" }, from!.a.headers)).status).toBe(409);
    await sentAgo(ASK_AGAIN_DAYS + 1);
    expect(await states(us.coupleId, them.coupleId)).toEqual(["none"]);
    expect(await states(them.coupleId, us.coupleId)).toEqual(["none"]);
    expect((await connections.send({ coupleId: us.coupleId, note: "Hello at last" }, them.a.headers)).status).toBe(201);
  });
});

describe("a request on the live stream", () => {
  it("shows each person only their own view: after a decline the senders' whole history still reads 'pending'", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple();
    const sent = await connections.send({ coupleId: them.coupleId, note: "Hello there" }, us.a.headers);
    expect((await connections.decline(sent.json.data.id, them.b.headers)).status).toBe(200);
    const statuses = async (headers: Record<string, string>) => {
      const { stream } = await openStream(headers, 0);
      try {
        const events = await stream.waitFor((all) => named(all, "connection").length > 0);
        return named(events, "connection").map((event) => (event.data as { status: string }).status);
      } finally {
        stream.close();
      }
    };
    for (const sender of [us.a, us.b]) expect(await statuses(sender.headers)).toEqual(["pending"]);
    expect((await statuses(them.a.headers)).at(-1)).toBe("declined");
  });
});

describe("senderFacts: a request's distance band and interests in common", () => {
  it("measures between the shown places and names the interests both couples share", async () => {
    const db = await getDb();
    const us = await forumCouple({ place: { lat: 38.72, lng: -9.14, city: "Lisbon", country: "Portugal" } });
    const near = await forumCouple({ place: { lat: 38.8, lng: -9.38, city: "Sintra", country: "Portugal" } });
    const hidden = await forumCouple({ place: { lat: 38.8, lng: -9.38, city: "Sintra", country: "Portugal", level: "hidden" } });
    await db
      .update(couples)
      .set({ interests: ["travel", "hiking"] })
      .where(eq(couples.id, us.coupleId));
    await db
      .update(couples)
      .set({ interests: ["hiking", "cooking"] })
      .where(eq(couples.id, near.coupleId));
    const facts = await senderFacts(db, us.a.userId, [near.coupleId, hidden.coupleId]);
    expect(facts.get(near.coupleId)).toEqual({ distanceBand: "Within 25 km", interestsInCommon: ["Hiking"] });
    // A hidden place tells no distance.
    expect(facts.get(hidden.coupleId)).toEqual({ distanceBand: null, interestsInCommon: [] });
  });
});

describe("the live stream when a block ends a conversation", () => {
  it("tells all four the conversation ended (the thread and the inbox load it again)", async () => {
    const { one, two, conversationId } = await connected();
    expect((await block(two.coupleId, one.a.headers)).status).toBeLessThan(300);
    const db = await getDb();
    for (const person of [one.a, one.b, two.a, two.b]) {
      const rows = await db
        .select({ seq: liveEvents.seq, kind: liveEvents.kind, subjectId: liveEvents.subjectId, payload: liveEvents.payload })
        .from(liveEvents)
        .where(
          and(
            eq(liveEvents.userId, person.userId),
            eq(liveEvents.kind, "connection"),
            sql`${liveEvents.payload}->>'conversationId' = ${conversationId}`,
          ),
        );
      const sent = await render(db, person.userId, rows, LIVE_REGISTRY);
      expect(sent.map((event) => [event.event, event.data])).toContainEqual(["connection", { conversationId, ended: true }]);
    }
  });
});
