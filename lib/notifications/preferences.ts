import "server-only";
import { and, eq, gt, inArray, isNull, lte, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { deleteOldest } from "@/db/batches";
import { transaction } from "@/db/transaction";
import { notificationPreferences, unsubscribeTokens } from "@/db/schema";
import { hashToken, newSecretToken } from "@/lib/auth/secrets";
import { AppError } from "@/lib/errors";
import { LIMITS, spendLimits } from "@/lib/rate-limit";
import {
  choiceOf,
  DEFAULT_PREFERENCES,
  definitionOf,
  isNotificationKind,
  NOTIFICATION_TYPES,
  withDefaults,
  type ChannelChoice,
  type NotificationKind,
  type NotificationPreferences,
} from "./rules";
import type { NotificationPreferencesInput } from "./schemas";

/** How long an e-mail's unsubscribe link keeps working. */
export const UNSUBSCRIBE_TTL_SECONDS = 180 * 24 * 60 * 60;
/** How long a used link is kept after its use: then it expires, and goes with the others (dropOldUnsubscribeTokens). */
export const USED_UNSUBSCRIBE_KEPT_SECONDS = 24 * 60 * 60;
/** Expired links a due-work run removes at most; the next run goes on. */
const UNSUBSCRIBE_DROPS_PER_RUN = 1_000;
export const INVALID_UNSUBSCRIBE_LINK =
  "This unsubscribe link has already been used or is not valid. You can change your e-mail choices in Settings.";
/** A link from before its type's e-mail became a service e-mail (`serviceEmail`): nothing to turn off. */
export const SERVICE_EMAIL_KEPT = (label: string) =>
  `E-mails about '${label}' concern your own account, so they are always sent and cannot be turned off.`;

/** The person's choices for every type, their stored ones over the defaults. */
export async function getPreferences(db: Db, userId: string): Promise<NotificationPreferences> {
  const rows = await db
    .select({
      type: notificationPreferences.type,
      inApp: notificationPreferences.inApp,
      email: notificationPreferences.email,
      push: notificationPreferences.push,
    })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId));
  return withDefaults(rows);
}

/** Each wanted person's choice for a type, in the order asked: one read of their stored rows by primary key. */
export async function preferencesFor(db: Db, wanted: readonly { userId: string; type: NotificationKind }[]): Promise<ChannelChoice[]> {
  if (wanted.length === 0) return [];
  const rows = await db
    .select({
      userId: notificationPreferences.userId,
      type: notificationPreferences.type,
      inApp: notificationPreferences.inApp,
      email: notificationPreferences.email,
      push: notificationPreferences.push,
    })
    .from(notificationPreferences)
    .where(
      and(
        inArray(notificationPreferences.userId, [...new Set(wanted.map((one) => one.userId))]),
        inArray(notificationPreferences.type, [...new Set(wanted.map((one) => one.type))]),
      ),
    );
  const stored = new Map(rows.map((row) => [`${row.userId} ${row.type}`, row]));
  return wanted.map(({ userId, type }) => {
    const row = stored.get(`${userId} ${type}`);
    return row ? choiceOf(type, row) : DEFAULT_PREFERENCES[type];
  });
}

/** One person's choice for one type (preferencesFor). */
export async function preferenceFor(db: Db, userId: string, type: NotificationKind): Promise<ChannelChoice> {
  const [choice] = await preferencesFor(db, [{ userId, type }]);
  return choice!;
}

/** Saves the named types' choices (the others stay) and answers them all; each save counts against LIMITS.notificationSettingsPerUser. */
export async function savePreferences(db: Db, userId: string, input: NotificationPreferencesInput): Promise<NotificationPreferences> {
  await spendLimits(db, [[LIMITS.notificationSettingsPerUser, userId]]);
  const values = NOTIFICATION_TYPES.flatMap((type) => {
    const choice = input[type];
    return choice ? [{ userId, type, inApp: choice.inApp, email: choice.email, push: choice.push ?? null }] : [];
  });
  if (values.length > 0) {
    await db
      .insert(notificationPreferences)
      .values(values)
      .onConflictDoUpdate({
        target: [notificationPreferences.userId, notificationPreferences.type],
        // A client that left push out keeps the stored choice.
        set: {
          inApp: sql`excluded.in_app`,
          email: sql`excluded.email`,
          push: sql`coalesce(excluded.push, ${notificationPreferences.push})`,
          updatedAt: new Date(),
        },
      });
  }
  return getPreferences(db, userId);
}

/** A fresh unsubscribe link's secret for each e-mail, in the order asked, written in one statement; only their hashes are stored. */
export async function issueUnsubscribeTokens(db: Db, wanted: readonly { userId: string; type: NotificationKind }[]): Promise<string[]> {
  if (wanted.length === 0) return [];
  const expiresAt = new Date(Date.now() + UNSUBSCRIBE_TTL_SECONDS * 1000);
  const tokens = wanted.map(() => newSecretToken());
  await db
    .insert(unsubscribeTokens)
    .values(wanted.map(({ userId, type }, index) => ({ userId, type, tokenHash: hashToken(tokens[index]!), expiresAt })));
  return tokens;
}

/** A fresh unsubscribe link's secret for one e-mail. */
export async function issueUnsubscribeToken(db: Db, userId: string, type: NotificationKind): Promise<string> {
  const [token] = await issueUnsubscribeTokens(db, [{ userId, type }]);
  return token!;
}

/**
 * The unsubscribe links past their expiry (a used one's is a day after its use) go, the oldest
 * first, at most `limit` (the due work's, in its transaction): one is written per e-mail, and
 * nothing else removes them. Answers how many.
 */
export async function dropOldUnsubscribeTokens(tx: Db, now: Date, limit = UNSUBSCRIBE_DROPS_PER_RUN): Promise<number> {
  return deleteOldest(tx, unsubscribeTokens, { where: lte(unsubscribeTokens.expiresAt, now), order: unsubscribeTokens.expiresAt, limit });
}

/**
 * Uses an unsubscribe link: e-mail for its type is turned off for its person (in-app stays as
 * chosen). Works once (it then expires a day later, USED_UNSUBSCRIBE_KEPT_SECONDS, or at its own
 * expiry if sooner); an unknown, used or expired token is INVALID_TOKEN with nothing changed.
 * A service e-mail's type (`serviceEmail`, which no choice turns off) is VALIDATION_ERROR, nothing
 * changed. No sign-in needed: the unguessable token is the proof.
 */
export async function unsubscribe(db: Db, token: string): Promise<{ type: NotificationKind }> {
  return transaction(db, async (tx) => {
    const now = new Date();
    const forgetAt = new Date(now.getTime() + USED_UNSUBSCRIBE_KEPT_SECONDS * 1000).toISOString();
    const [row] = await tx
      .update(unsubscribeTokens)
      .set({ usedAt: now, expiresAt: sql`least(${unsubscribeTokens.expiresAt}, ${forgetAt}::timestamptz)` })
      .where(and(eq(unsubscribeTokens.tokenHash, hashToken(token)), isNull(unsubscribeTokens.usedAt), gt(unsubscribeTokens.expiresAt, now)))
      .returning({ userId: unsubscribeTokens.userId, type: unsubscribeTokens.type });
    // A link of a type that no longer exists turns nothing off.
    if (!row || !isNotificationKind(row.type)) throw new AppError("INVALID_TOKEN", INVALID_UNSUBSCRIBE_LINK);
    const { serviceEmail, label } = definitionOf(row.type);
    if (serviceEmail) throw new AppError("VALIDATION_ERROR", SERVICE_EMAIL_KEPT(label));
    // E-mail alone, in one write: a choice read first and written back whole would undo the other
    // channels a save of the settings page made at the same instant.
    const { inApp } = DEFAULT_PREFERENCES[row.type];
    await tx
      .insert(notificationPreferences)
      .values({ userId: row.userId, type: row.type, inApp, email: false, push: null })
      .onConflictDoUpdate({
        target: [notificationPreferences.userId, notificationPreferences.type],
        set: { email: false, updatedAt: now },
      });
    return { type: row.type };
  });
}
