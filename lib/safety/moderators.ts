import "server-only";
import { and, asc, eq, inArray, ne, notExists, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { alias, QueryBuilder } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { resultRows } from "@/db/result-rows";
import { transaction } from "@/db/transaction";
import { reports, users } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { ADMINS_ONLY, mayGrantRoles, type Role } from "@/lib/membership/roles";
import { consumeLimit, limitError } from "@/lib/rate-limit";
import { recordModeration } from "./moderation-log";
import { coupleReported, couplesReportedBy } from "./reports-against";
import { MODERATION_PER_USER } from "./rules";

/**
 * A moderator as every moderation write takes them: their id and their own couple (none: null),
 * read with their role by the `moderator` and `admin` access checks (lib/http/access.ts).
 */
export type Moderator = { userId: string; coupleId: string | null };

export const OWN_COUPLE_MESSAGE = "You cannot act on your own couple. Another moderator will.";

/**
 * Whether what a moderator reads or does concerns their own couple: a conflict of interest, so
 * another moderator decides, and who reported the couple, who acted on it and their notes are not
 * shown to them (the couple itself is told what was done and why, as every couple is).
 */
export const concernsOwnCouple = (moderator: Pick<Moderator, "coupleId">, coupleId: string | null): boolean =>
  coupleId !== null && coupleId === moderator.coupleId;

/**
 * Before every moderator write on a couple (and on a reported target, `report`): the conflict of
 * interest rule, one for every write, so another moderator acts: never their own couple nor a
 * couple their own couple has an open report against (`leftToAnother`), nor a target it reported
 * (`reportedByOwnCouple`). Then the moderator's own hourly allowance
 * (MODERATION_PER_USER).
 */
export async function assertMayActOn(db: Db, moderator: Moderator, coupleId: string | null, report?: Target): Promise<void> {
  if (
    (coupleId !== null && (await leftToAnother(db, moderator, coupleId)) !== null) ||
    (report !== undefined && (await reportedByOwnCouple(db, moderator, report)))
  )
    throw new AppError("FORBIDDEN", OWN_COUPLE_MESSAGE);
  const state = await consumeLimit(db, MODERATION_PER_USER, moderator.userId);
  if (!state.allowed) throw limitError(MODERATION_PER_USER, state.retryAfterSeconds);
}

/**
 * Why the moderator may not act on the couple, another moderator does (`assertMayActOn`'s rule):
 * it is their own (`concernsOwnCouple`), or their couple has an open report against it. Null:
 * they may. The couple's page says which instead of offering actions that would be refused.
 */
export async function leftToAnother(db: Db, moderator: Pick<Moderator, "coupleId">, coupleId: string): Promise<"own" | "reported" | null> {
  if (concernsOwnCouple(moderator, coupleId)) return "own";
  if (!moderator.coupleId) return null;
  const result = await db.execute(sql`select ${coupleId}::uuid in (${reportedCouples(moderator.coupleId)}) as found`);
  return resultRows<{ found: boolean }>(result)[0]?.found === true ? "reported" : null;
}

/** Reports as read beside another report (the same target's, filed by the moderator's couple). */
const own = alias(reports, "own_report");

type Target = Pick<typeof reports.$inferSelect, "targetType" | "targetId">;

/**
 * The open reports the moderator's couple filed of a target (given, or an outer query's report):
 * deciding one decides them, so the target is another moderator's.
 */
const filedByOwnCouple = (
  coupleId: string,
  of: { targetType: typeof reports.targetType | Target["targetType"]; targetId: typeof reports.targetId | string },
) => and(eq(own.targetType, of.targetType), eq(own.targetId, of.targetId), eq(own.status, "open"), eq(own.reporterCoupleId, coupleId));

/** The couples the moderator's own couple has an open report against (`couplesReportedBy`), nulls left out for `not in`. */
const reportedCouples = (coupleId: string): SQL =>
  sql`select couple_id from (${couplesReportedBy(coupleId)}) reported where couple_id is not null`;

/** The couples left to another moderator (`leftToAnother`): their own, and those it reported. */
const couplesLeftToAnother = (coupleId: string): SQL => sql`select ${coupleId}::uuid union all ${reportedCouples(coupleId)}`;

/** Whether the moderator's own couple filed an open report of the target: deciding it is another moderator's. */
async function reportedByOwnCouple(db: Db, moderator: Pick<Moderator, "coupleId">, target: Target): Promise<boolean> {
  if (!moderator.coupleId) return false;
  const [found] = await db.select({ id: own.id }).from(own).where(filedByOwnCouple(moderator.coupleId, target)).limit(1);
  return found !== undefined;
}

/**
 * The couples a moderator may decide for, as a condition on a couple column (the verification
 * queue's): the rule `assertMayActOn` holds them to, so a list never offers what deciding refuses.
 * The couples are read once ahead of the query (`array(...)`), a cheap test on each row: as
 * `not in (...)` the planner priced each key lookup with their read, and the appeals queue read
 * every action taken instead of the page's. The couples hold no null: the rows `not in` keeps.
 */
export const mayDecideFor = (moderator: Pick<Moderator, "coupleId">, couple: AnyColumn): SQL | undefined =>
  moderator.coupleId === null ? undefined : sql`${couple} <> all(array(${couplesLeftToAnother(moderator.coupleId)}))`;

/**
 * The reports a moderator may judge, as a condition on `reports` (none without a couple): never
 * those against their own couple or a couple their couple reported (`coupleReported` of each:
 * one lookup by its target's key, whatever those couples wrote), nor those of a target their
 * couple reported (`filedByOwnCouple`): what `assertMayActOn` refuses. A report against no couple
 * (null: gone) is not kept from anyone. A list applies it before its limit, so reports a moderator
 * may not judge never crowd out those they may.
 */
export const mayJudge = (moderator: Pick<Moderator, "coupleId">): SQL | undefined =>
  moderator.coupleId === null
    ? undefined
    : and(
        sql`coalesce(${coupleReported(reports)} not in (${couplesLeftToAnother(moderator.coupleId)}), true)`,
        notExists(
          new QueryBuilder()
            .select({ id: own.id })
            .from(own)
            .where(filedByOwnCouple(moderator.coupleId, { targetType: reports.targetType, targetId: reports.targetId })),
        ),
      );

/**
 * The team (moderators and admins), by first name, as every member knows them (a last name is
 * private, to the team too): the log's moderator filter and the admins' team page.
 */
export async function moderationTeam(db: Db): Promise<{ userId: string; name: string; role: string }[]> {
  const rows = await db
    .select({ userId: users.id, name: users.firstName, role: users.role })
    .from(users)
    .where(inArray(users.role, ["moderator", "admin"]))
    .orderBy(asc(users.firstName), asc(users.id));
  return rows;
}

export const OWN_ROLE_MESSAGE = "You cannot change your own role. Another admin will.";
export const NO_SUCH_ACCOUNT = "No account has this e-mail address.";

/**
 * Gives a person a role (`member` revokes), by e-mail (`POST /api/moderation/team`, the command
 * line) or by id (`DELETE /api/moderation/team/{userId}`): logged as role granted or revoked, by
 * the admin (null: the command line). An admin never changes their own role, so the team cannot
 * lose its last admin by a slip.
 */
export async function setRole(
  db: Db,
  grantedBy: string | null,
  who: { email: string } | { userId: string },
  role: Role,
): Promise<{ userId: string; role: Role }> {
  if (grantedBy) {
    const state = await consumeLimit(db, MODERATION_PER_USER, grantedBy);
    if (!state.allowed) throw limitError(MODERATION_PER_USER, state.retryAfterSeconds);
  }
  return transaction(db, async (tx) => {
    const [found] = await tx
      .select({ id: users.id })
      .from(users)
      .where("email" in who ? eq(users.email, who.email) : eq(users.id, who.userId));
    if (!found) throw new AppError("NOT_FOUND", NO_SUCH_ACCOUNT);
    if (found.id === grantedBy) throw new AppError("FORBIDDEN", OWN_ROLE_MESSAGE);
    // The person and the granting admin locked together, in one order, and the admin's role read
    // under the lock: of two admins revoking each other at one instant, the second is no longer an
    // admin, so the team never loses its last admin that way. `NO KEY UPDATE` (the role is no key):
    // a row being written that refers to either person (a reply, a notice) is not waited on.
    const locked = await tx
      .select({ id: users.id, role: users.role })
      .from(users)
      .where(inArray(users.id, grantedBy ? [found.id, grantedBy] : [found.id]))
      .orderBy(asc(users.id))
      .for("no key update");
    const person = locked.find((row) => row.id === found.id);
    if (!person) throw new AppError("NOT_FOUND", NO_SUCH_ACCOUNT);
    const granter = locked.find((row) => row.id === grantedBy);
    if (grantedBy && !(granter && mayGrantRoles(granter.role))) throw new AppError("FORBIDDEN", ADMINS_ONLY);
    const [changed] = await tx
      .update(users)
      .set({ role })
      .where(and(eq(users.id, person.id), ne(users.role, role)))
      .returning({ id: users.id });
    if (changed)
      await recordModeration(tx, {
        moderatorUserId: grantedBy,
        action: role === "member" ? "role_revoked" : "role_granted",
        target: { type: "user", id: person.id },
        note: role,
      });
    return { userId: person.id, role };
  });
}
