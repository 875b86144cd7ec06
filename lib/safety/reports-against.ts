import { sql, type SQL } from "drizzle-orm";

/**
 * The reports whose target is the couple or something it wrote (a post, a reply, a message): the
 * couple's record counts them, and a sanction taken from a report closes only one of them.
 */
export const reportsAgainst = (coupleId: string): SQL => sql`
  select r.id, r.reason, r.reporter_couple_id from reports r where r.target_type = 'couple' and r.target_id = ${coupleId}
  union all select r.id, r.reason, r.reporter_couple_id from reports r join forum_posts p on r.target_type = 'post' and p.id = r.target_id where p.couple_id = ${coupleId}
  union all select r.id, r.reason, r.reporter_couple_id from reports r join forum_replies p on r.target_type = 'reply' and p.id = r.target_id where p.couple_id = ${coupleId}
  union all select r.id, r.reason, r.reporter_couple_id from reports r join messages m on r.target_type = 'message' and m.id = r.target_id where m.author_couple_id = ${coupleId}`;
