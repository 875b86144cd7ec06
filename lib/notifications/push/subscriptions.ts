import "server-only";
import { and, asc, eq, ne, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { oneAtATime, transaction } from "@/db/transaction";
import { conversations, pushSettings, pushSubscriptions } from "@/db/schema";
import { describeDevice } from "@/lib/auth/device";
import { hmac } from "@/lib/auth/secrets";
import { authSecret } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { consumeLimit, limitError, spendLimits } from "@/lib/rate-limit";
import { endpointAllowed } from "./endpoint";
import { MAX_DEVICES, PUSH_SETTINGS_LIMIT, SUBSCRIBE_LIMIT } from "./limits";
import { liveSubscription } from "./rows";
import type { PushSettingsInput, RemoveInput, SubscribeInput } from "./schemas";

/** A device as the settings page lists it (never its endpoint or keys). */
export type PushDevice = { id: string; label: string; addedAt: string; lastDeliveredAt: string | null; thisDevice: boolean };

/**
 * The browser session a signed-in page was rendered under, as the browser may keep it (it names
 * the session and cannot stand for it): keepThisDeviceOn tells by it a device removed during this
 * session, from another device, from one whose session ended.
 */
export const sessionMark = (sessionId: string) => hmac(authSecret(), `push-session:${sessionId}`);

export const ENDPOINT_REFUSED = "This push service address is not accepted.";
export const TOO_MANY_DEVICES = `You can have notifications on at most ${MAX_DEVICES} devices. Remove one in the list first.`;

/**
 * Turns push on for this device (its browser session), SUBSCRIBE_LIMIT times an hour at most: the endpoint must be one we may call
 * (endpoint.ts), a person has at most MAX_DEVICES, and the same endpoint again (a browser
 * re-subscribing, or another person signing in on it) moves to this person and session.
 */
export async function subscribe(db: Db, who: { userId: string; sessionId: string; userAgent: string | null }, input: SubscribeInput) {
  const spent = await consumeLimit(db, SUBSCRIBE_LIMIT, who.userId);
  if (!spent.allowed) throw limitError(SUBSCRIBE_LIMIT, spent.retryAfterSeconds);
  if (!(await endpointAllowed(input.endpoint))) throw new AppError("VALIDATION_ERROR", ENDPOINT_REFUSED);
  return transaction(db, async (tx) => {
    // One person's subscriptions are counted and added one at a time.
    await oneAtATime(tx, `push:${who.userId}`);
    const [{ count }] = (await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, who.userId), sql`${pushSubscriptions.endpoint} <> ${input.endpoint}`))) as [
      { count: number },
    ];
    if (count >= MAX_DEVICES) throw new AppError("VALIDATION_ERROR", TOO_MANY_DEVICES);
    const values = {
      userId: who.userId,
      sessionId: who.sessionId,
      endpoint: input.endpoint,
      p256dh: input.keys.p256dh,
      auth: input.keys.auth,
      label: describeDevice(who.userAgent).slice(0, 60),
    };
    // A browser keeps its endpoint across accounts: someone else's device there goes, with the
    // pushes still waiting for them (their words must not reach the next person on it).
    await tx.delete(pushSubscriptions).where(and(eq(pushSubscriptions.endpoint, input.endpoint), ne(pushSubscriptions.userId, who.userId)));
    const [row] = await tx
      .insert(pushSubscriptions)
      .values(values)
      .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { ...values, createdAt: sql`now()`, lastDeliveredAt: null } })
      .returning({ id: pushSubscriptions.id });
    return { id: row!.id };
  });
}

/** The person's devices, oldest first; `thisDevice` marks the one under the asking session. */
export async function listDevices(db: Db, userId: string, sessionId: string): Promise<PushDevice[]> {
  const rows = await db
    .select({
      id: pushSubscriptions.id,
      label: pushSubscriptions.label,
      addedAt: pushSubscriptions.createdAt,
      lastDeliveredAt: pushSubscriptions.lastDeliveredAt,
      sessionId: pushSubscriptions.sessionId,
    })
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), liveSubscription()))
    .orderBy(asc(pushSubscriptions.createdAt))
    .limit(MAX_DEVICES);
  return rows.map((row) => ({
    id: row.id,
    label: row.label,
    addedAt: row.addedAt.toISOString(),
    lastDeliveredAt: row.lastDeliveredAt?.toISOString() ?? null,
    thisDevice: row.sessionId === sessionId,
  }));
}

/** Every device the person turned push on for, by name and dates (the data export): never its endpoint or keys. */
export async function devicesForExport(db: Db, userId: string) {
  return db
    .select({ label: pushSubscriptions.label, createdAt: pushSubscriptions.createdAt, lastDeliveredAt: pushSubscriptions.lastDeliveredAt })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.createdAt));
}

/** Removes one of the person's devices (by id, or this device's by its endpoint); someone else's is not found. Counts against PUSH_SETTINGS_LIMIT. */
export async function removeDevice(db: Db, userId: string, input: RemoveInput): Promise<void> {
  await spendLimits(db, [[PUSH_SETTINGS_LIMIT, userId]]);
  const which = "id" in input ? eq(pushSubscriptions.id, input.id) : eq(pushSubscriptions.endpoint, input.endpoint);
  const removed = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), which))
    .returning({ id: pushSubscriptions.id });
  if (removed.length === 0) throw new AppError("NOT_FOUND", "Device not found");
}

export type PushChoices = { showPreviews: boolean; promptDone: boolean };

export async function getPushChoices(db: Db, userId: string): Promise<PushChoices> {
  const [row] = await db
    .select({ showPreviews: pushSettings.showPreviews, promptDoneAt: pushSettings.promptDoneAt })
    .from(pushSettings)
    .where(eq(pushSettings.userId, userId));
  return { showPreviews: row?.showPreviews ?? false, promptDone: Boolean(row?.promptDoneAt) };
}

/** Saves 'Show message previews' and/or that the prompt was answered, and answers both; counts against PUSH_SETTINGS_LIMIT. */
export async function savePushChoices(db: Db, userId: string, input: PushSettingsInput): Promise<PushChoices> {
  await spendLimits(db, [[PUSH_SETTINGS_LIMIT, userId]]);
  const set = {
    ...(input.showPreviews === undefined ? {} : { showPreviews: input.showPreviews }),
    ...(input.promptDone ? { promptDoneAt: new Date() } : {}),
  };
  if (Object.keys(set).length > 0)
    await db
      .insert(pushSettings)
      .values({ userId, ...set })
      .onConflictDoUpdate({ target: pushSettings.userId, set });
  return getPushChoices(db, userId);
}

/**
 * Whether the one gentle prompt is due: the couple's first hello was accepted (it has a
 * conversation) and the person has not answered the prompt yet. Never on a first visit.
 */
export async function pushPromptDue(db: Db, userId: string, coupleId: string): Promise<boolean> {
  const [row] = await db
    .select({
      talking: sql<boolean>`exists (select 1 from ${conversations} where ${or(eq(conversations.coupleLowId, coupleId), eq(conversations.coupleHighId, coupleId))})`,
      answered: sql<boolean>`exists (select 1 from ${pushSettings} where ${pushSettings.userId} = ${userId} and ${pushSettings.promptDoneAt} is not null)`,
    })
    .from(sql`(select 1) as one`);
  return Boolean(row?.talking) && !row?.answered;
}
