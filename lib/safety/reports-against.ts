import { and, eq, ne, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { reports } from "@/db/schema";
import { AppError } from "@/lib/errors";

/**
 * The reports whose target is the couple, something it wrote (a post, a reply, a message, a hello) or a
 * plan it shares, reported by the plan's other couple (a plan report names the couple that did
 * not file it: lib/plans/reports.ts; a couple gone with its last partner is null in both the
 * report and the conversation, so `is not distinct from`): the couple's record counts them, and a
 * sanction taken from a report closes only one of them.
 */
export const reportsAgainst = (coupleId: string): SQL => sql`
  select r.id, r.reason, r.reporter_couple_id from reports r where r.target_type = 'couple' and r.target_id = ${coupleId}
  union all select r.id, r.reason, r.reporter_couple_id from reports r join forum_posts p on r.target_type = 'post' and p.id = r.target_id where p.couple_id = ${coupleId}
  union all select r.id, r.reason, r.reporter_couple_id from reports r join forum_replies p on r.target_type = 'reply' and p.id = r.target_id where p.couple_id = ${coupleId}
  union all select r.id, r.reason, r.reporter_couple_id from reports r join messages m on r.target_type = 'message' and m.id = r.target_id where m.author_couple_id = ${coupleId}
  union all select r.id, r.reason, r.reporter_couple_id from reports r join connection_requests h on r.target_type = 'request' and h.id = r.target_id where h.from_couple_id = ${coupleId}
  union all select r.id, r.reason, r.reporter_couple_id from reports r join plans p on r.target_type = 'plan' and p.id = r.target_id join conversations c on c.id = p.conversation_id
    where (c.couple_low_id = ${coupleId} and r.reporter_couple_id is not distinct from c.couple_high_id)
       or (c.couple_high_id = ${coupleId} and r.reporter_couple_id is not distinct from c.couple_low_id)`;

/**
 * Who filed a report, as the rules that count different couples count them (the hide rule, the
 * spam rule, the queue's and a couple record's counts): its couple; once that couple went with its
 * last partner's account, the report outlives them anonymised (no couple) and counts once, by its own id.
 */
export const reportingCouple = (report: Record<"id" | "reporterCoupleId", AnyColumn | SQL>): SQL =>
  sql`coalesce(${report.reporterCoupleId}, ${report.id})`;

/** A report's columns: the reports table's, or an alias's (an outer query's report). */
type ReportColumns = Record<"targetType" | "targetId" | "reporterCoupleId", AnyColumn>;

/**
 * The couple one report is against (`reportsAgainst` read the other way, target by target: the
 * two must name the same couple), by its target's key: the couple, its target's author, or of a
 * plan the couple that did not file it; null once that is gone.
 */
export const coupleReported = (report: ReportColumns): SQL => sql`case ${report.targetType}
    when 'couple' then ${report.targetId}
    when 'post' then (select p.couple_id from forum_posts p where p.id = ${report.targetId})
    when 'reply' then (select p.couple_id from forum_replies p where p.id = ${report.targetId})
    when 'message' then (select m.author_couple_id from messages m where m.id = ${report.targetId})
    when 'request' then (select h.from_couple_id from connection_requests h where h.id = ${report.targetId})
    when 'plan' then (select case when ${report.reporterCoupleId} is not distinct from c.couple_low_id then c.couple_high_id
        when ${report.reporterCoupleId} is not distinct from c.couple_high_id then c.couple_low_id end
      from plans p join conversations c on c.id = p.conversation_id where p.id = ${report.targetId})
  end`;

/**
 * The couples a couple's open reports are against (`coupleReported` of each), found from the
 * reporter's few open reports (reports_open_reporter_couple_idx): the couples its moderators leave
 * to another moderator.
 */
export const couplesReportedBy = (coupleId: string): SQL => sql`
  select ${coupleReported(reports)} as couple_id from ${reports} where ${reports.status} = 'open' and ${reports.reporterCoupleId} = ${coupleId}`;

/** A report as `decidedWith` reads it: its values, or the columns of a query's report (the queue's). */
type Decided =
  | Pick<typeof reports.$inferSelect, "targetType" | "targetId" | "reporterCoupleId">
  | Record<"targetType" | "targetId" | "reporterCoupleId", AnyColumn>;

/**
 * The open reports one decision (or an action taken from a report) closes with `report`: those of
 * its target against the same couple. A plan is both couples', each report of it against the
 * couple that did not file it, so of a plan only those its reporter's couple filed: the other
 * couple's reports against the first wait for a decision of their own. `of`: the reports table
 * read (an alias beside another report: the moderation queue's one row per decision).
 */
export const decidedWith = (
  report: Decided,
  of: Record<"targetType" | "targetId" | "status" | "reporterCoupleId", AnyColumn> = reports,
): SQL =>
  and(
    eq(of.targetType, report.targetType),
    eq(of.targetId, report.targetId),
    eq(of.status, "open"),
    // A reporting couple gone (null: the report outlived it) is still one side of the plan.
    or(ne(of.targetType, "plan"), sql`${of.reporterCoupleId} is not distinct from ${report.reporterCoupleId}`),
  )!;

/** One decision per report: deciding one that is gone or was decided already (a report, or an action taken from it) is refused. */
export const reportReviewed = () => new AppError("NOT_FOUND", "This report does not exist or was already reviewed.");
