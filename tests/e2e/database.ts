import postgres from "postgres";
import { DEMO_INBOX, demoEmail, directoryEmail } from "../../lib/demo/data";

/**
 * The run's database (scripts/e2e-server.sh makes one per port): the one place a test changes what
 * only time or an operator could (a role granted, a meetup moved into the past), never a way
 * the app offers.
 */
export async function runDatabase<T>(work: (db: postgres.Sql) => Promise<T>): Promise<T> {
  const adminUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const port = process.env.E2E_PORT ?? "3100";
  const [found] = await admin`select datname from pg_database where datname like ${`e2e_${port}_%`} order by datname desc limit 1`;
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${found!.datname as string}`;
  const db = postgres(url.toString(), { max: 1, onnotice: () => {} });
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

/** The couples of the people with these e-mails, as a subquery. */
const couplesOf = (db: postgres.Sql, emails: string[]) => db`
  select couples.id from couples join users on users.id in (couples.partner1_id, couples.partner2_id)
  where users.email in ${db(emails)}`;

/** The id of the couple of the person with this e-mail. */
export const coupleIdOf = (email: string) =>
  runDatabase(async (db) => {
    const [row] = await couplesOf(db, [email]);
    return row!.id as string;
  });

/**
 * Seeded couples (named by a partner's first name) as the seed left them: no hello, conversation or
 * block between any two of them, no sanction on them, report by them or moderator's notice to them,
 * and 'Both of us approve new connections' off. A walk that connects or moderates seeded couples
 * calls it first, so its retry does not meet what its failed try made (a second hello answers 409;
 * a second standing restriction doubles the form the walk lifts). The moderation log is append-only
 * (its trigger refuses a delete) and keeps a failed try's entries: a walk reads its newest.
 */
export const asSeeded = (firstNames: string[]) =>
  runDatabase(async (db) => {
    const ids = couplesOf(db, firstNames.map(directoryEmail));
    await db`delete from conversations where couple_low_id in (${ids}) and couple_high_id in (${ids})`;
    await db`delete from connection_requests where from_couple_id in (${ids}) and to_couple_id in (${ids})`;
    await db`delete from couple_blocks where blocker_couple_id in (${ids}) and blocked_couple_id in (${ids})`;
    await db`delete from couple_sanctions where couple_id in (${ids})`;
    await db`delete from reports where reporter_couple_id in (${ids})`;
    await db`
      delete from notifications where type = 'moderation' and user_id in (
        select unnest(array[partner1_id, partner2_id]) from couples where id in (${ids}))`;
    await db`update couples set both_approve_connections = false where id in (${ids})`;
  });

/**
 * The demo recipient's inbox as the seed left it: what the seed made unread is unread again. The
 * notifications walk opens one and marks all read; its retry then finds them as its first try did.
 */
export const inboxAsSeeded = () =>
  runDatabase(async (db) => {
    const unread = DEMO_INBOX.notifications.filter((notification) => !notification.read).map((notification) => notification.title);
    await db`
      update notifications set is_read = false, read_at = null
      where user_id = (select id from users where email = ${demoEmail(DEMO_INBOX.recipient)}) and title in ${db(unread)}`;
  });
