import "server-only";
import { asc, eq, inArray, or } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, users } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { consumeLimit, limitError } from "@/lib/rate-limit";
import { MODERATION_PER_USER } from "./rules";

/** A moderator as every moderation write takes them: their id and their own couple (none: null). */
export type Moderator = { userId: string; coupleId: string | null };

export const OWN_COUPLE_MESSAGE = "You cannot act on your own couple. Another moderator will.";

/** The moderator behind a caller the route already checked (`moderator` access): their couple read once. */
export async function moderatorOf(db: Db, userId: string): Promise<Moderator> {
  const [row] = await db
    .select({ coupleId: couples.id })
    .from(couples)
    .where(or(eq(couples.partner1Id, userId), eq(couples.partner2Id, userId)))
    .limit(1);
  return { userId, coupleId: row?.coupleId ?? null };
}

/**
 * Before every moderator write: the moderator's own hourly allowance (MODERATION_PER_USER), and
 * never their own couple (a conflict of interest: another moderator decides).
 */
export async function assertMayActOn(db: Db, moderator: Moderator, coupleId: string | null): Promise<void> {
  if (coupleId !== null && coupleId === moderator.coupleId) throw new AppError("FORBIDDEN", OWN_COUPLE_MESSAGE);
  const state = await consumeLimit(db, MODERATION_PER_USER, moderator.userId);
  if (!state.allowed) throw limitError(MODERATION_PER_USER, state.retryAfterSeconds);
}

/** The team (moderators and admins), by first name: the log's moderator filter. */
export async function moderationTeam(db: Db): Promise<{ userId: string; name: string; role: string }[]> {
  const rows = await db
    .select({ userId: users.id, firstName: users.firstName, lastName: users.lastName, role: users.role })
    .from(users)
    .where(inArray(users.role, ["moderator", "admin"]))
    .orderBy(asc(users.firstName), asc(users.id));
  return rows.map((row) => ({ userId: row.userId, name: `${row.firstName} ${row.lastName}`.trim(), role: row.role }));
}
