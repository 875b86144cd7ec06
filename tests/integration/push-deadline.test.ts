import { createECDH, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import webpush from "web-push";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { pushOutbox, pushSubscriptions, users } from "@/db/schema";
import { deliverDuePushes } from "@/lib/notifications/push/deliver";
import { webPushTransport } from "@/lib/notifications/push/transport";
import { helloPush } from "../support/push-service";
import { startSlowPushHost } from "../support/push-slow-host";

const vapid = { ...webpush.generateVAPIDKeys(), subject: "mailto:push@example.com" };
/** The sender's deadline, short here (PUSH_DEADLINE_MS in production); the host sends a byte every 100 ms meanwhile. */
const DEADLINE_MS = 1_000;

/** A person whose one device's endpoint is on `origin`, and a push waiting for it. */
async function waitingPush(origin: string) {
  const db = await getDb();
  const [person] = await db
    .insert(users)
    .values({
      email: `slow-${randomBytes(6).toString("hex")}@example.com`,
      passwordHash: "not-a-real-hash",
      firstName: "Slow",
      lastName: "Host",
      dateOfBirth: "1990-01-01",
    })
    .returning({ id: users.id });
  const browser = createECDH("prime256v1");
  browser.generateKeys();
  const [subscription] = await db
    .insert(pushSubscriptions)
    .values({
      userId: person!.id,
      endpoint: `${origin}/push/${randomBytes(6).toString("hex")}`,
      p256dh: browser.getPublicKey("base64url"),
      auth: randomBytes(16).toString("base64url"),
      label: "Chrome on Linux",
    })
    .returning({ id: pushSubscriptions.id });
  const [push] = await db.insert(pushOutbox).values(helloPush(subscription!.id)).returning({ id: pushOutbox.id });
  return push!.id;
}

const outboxRow = async (id: string) =>
  (await getDb())
    .select({ claimedAt: pushOutbox.claimedAt, attempts: pushOutbox.attempts, dueAt: pushOutbox.dueAt })
    .from(pushOutbox)
    .where(eq(pushOutbox.id, id));

describe("Web Push: an endpoint's host that never finishes answering", () => {
  it("gives a push up at the deadline when no status came, and tries it again later", async () => {
    const host = await startSlowPushHost("head");
    try {
      const push = await waitingPush(host.origin);
      const now = new Date();
      const transport = webPushTransport(host.agent, DEADLINE_MS);
      expect(await deliverDuePushes(await getDb(), { now, vapid, transport, allowLocalEndpoints: true })).toMatchObject({
        sent: 0,
        retried: 1,
      });
      const [row] = await outboxRow(push);
      expect(row).toMatchObject({ claimedAt: null, attempts: 1 });
      expect(row!.dueAt.getTime()).toBeGreaterThan(now.getTime());
      await vi.waitFor(() => expect(host.openConnections()).toBe(0), { timeout: 20_000, interval: 100 });
    } finally {
      await host.close();
    }
  });

  it("takes the status as the answer, reads none of a body that never ends, and hangs up at the deadline", async () => {
    const host = await startSlowPushHost("body");
    try {
      const push = await waitingPush(host.origin);
      const transport = webPushTransport(host.agent, DEADLINE_MS);
      expect(await deliverDuePushes(await getDb(), { vapid, transport, allowLocalEndpoints: true })).toMatchObject({ sent: 1, retried: 0 });
      expect(await outboxRow(push)).toEqual([]);
      await vi.waitFor(() => expect(host.openConnections()).toBe(0), { timeout: 20_000, interval: 100 });
    } finally {
      await host.close();
    }
  });
});
