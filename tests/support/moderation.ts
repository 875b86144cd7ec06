/** Helpers of the moderation integration tests: moderators, and the moderation routes' calls. */
import { eq, sql } from "drizzle-orm";
import { POST as appealRoute } from "@/app/api/appeals/route";
import { POST as suspendedAppealRoute } from "@/app/api/appeals/suspended/route";
import { POST as decideRoute } from "@/app/api/moderation/appeals/[id]/[decision]/route";
import { GET as openAppealsRoute } from "@/app/api/moderation/appeals/route";
import { GET as heldCouplesRoute } from "@/app/api/moderation/held/route";
import { GET as profileRoute } from "@/app/api/couples/[id]/full-profile/route";
import { POST as actRoute } from "@/app/api/moderation/couples/[id]/actions/route";
import { GET as recordRoute } from "@/app/api/moderation/couples/[id]/route";
import { DELETE as revokeRoute } from "@/app/api/moderation/team/[userId]/route";
import { GET as teamRoute, POST as grantRoute } from "@/app/api/moderation/team/route";
import { POST as heldRoute } from "@/app/api/moderation/held/[id]/[decision]/route";
import { GET as logRoute } from "@/app/api/moderation/log/route";
import { POST as resolveRoute } from "@/app/api/moderation/reports/[id]/[action]/route";
import { GET as openReportsRoute } from "@/app/api/moderation/reports/route";
import { POST as reportRoute } from "@/app/api/reports/route";
import { POST as liftRoute } from "@/app/api/moderation/sanctions/[id]/lift/route";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import type { ReservedSql } from "postgres";
import type { Role } from "@/lib/membership/roles";
import { nextCursorOf } from "@/lib/pagination/page";
import { couplesWithHeldHellos, type HeldCouple } from "@/lib/safety/spam";
import { call } from "./api";
import type { Headers, TestCouple } from "./forum";
import { messagingCouple } from "./messages";

const enc = encodeURIComponent;

/** Gives partner A of the couple a role; answers their headers. */
export async function withRole(couple: TestCouple, role: Role): Promise<Headers> {
  const db = await getDb();
  await db.update(users).set({ role }).where(eq(users.id, couple.a.userId));
  return couple.a.headers;
}

/** A moderator with a couple of their own: the couple, and partner A's headers. */
export async function moderatorCouple(role: Role = "moderator"): Promise<{ couple: TestCouple; headers: Headers; userId: string }> {
  const couple = await messagingCouple();
  return { couple, headers: await withRole(couple, role), userId: couple.a.userId };
}

export const moderation = {
  report: (body: unknown, h: Headers) => call(reportRoute, "POST", "/api/reports", { body, headers: h }),
  queue: (h: Headers, cursor?: string) =>
    call(openReportsRoute, "GET", `/api/moderation/reports${cursor === undefined ? "" : `?cursor=${enc(cursor)}`}`, { headers: h }),
  resolve: (id: string, action: string, h: Headers) =>
    call(resolveRoute, "POST", `/api/moderation/reports/${enc(id)}/${enc(action)}`, { headers: h, params: { id, action } }),
  log: (query: string, h: Headers) => call(logRoute, "GET", `/api/moderation/log${query}`, { headers: h }),
  held: (h: Headers, cursor?: string) =>
    call(heldCouplesRoute, "GET", `/api/moderation/held${cursor === undefined ? "" : `?cursor=${enc(cursor)}`}`, { headers: h }),
  decideHeld: (id: string, decision: string, h: Headers) =>
    call(heldRoute, "POST", `/api/moderation/held/${enc(id)}/${enc(decision)}`, { headers: h, params: { id, decision } }),
};

/** Every couple of the held hellos' queue the reader may read, page after page through its cursor. */
export async function allHeldCouples(reader: { coupleId: string | null }): Promise<HeldCouple[]> {
  const db = await getDb();
  const rows: HeldCouple[] = [];
  let cursor: string | null = null;
  do {
    const page = await couplesWithHeldHellos(db, reader, cursor ?? undefined);
    rows.push(...page.data);
    cursor = nextCursorOf(page);
  } while (cursor);
  return rows;
}

export const sanctions = {
  act: (coupleId: string, body: unknown, h: Headers) =>
    call(actRoute, "POST", `/api/moderation/couples/${enc(coupleId)}/actions`, { body, headers: h, params: { id: coupleId } }),
  lift: (sanctionId: string, body: unknown, h: Headers) =>
    call(liftRoute, "POST", `/api/moderation/sanctions/${enc(sanctionId)}/lift`, { body, headers: h, params: { id: sanctionId } }),
};

export const profileOf = (coupleId: string, h: Headers) =>
  call(profileRoute, "GET", `/api/couples/${enc(coupleId)}/full-profile`, { headers: h, params: { id: coupleId } });

export const coupleRecordOf = (coupleId: string, h: Headers) =>
  call(recordRoute, "GET", `/api/moderation/couples/${enc(coupleId)}`, { headers: h, params: { id: coupleId } });

export const appeals = {
  file: (body: unknown, h: Headers) => call(appealRoute, "POST", "/api/appeals", { body, headers: h }),
  suspended: (body: unknown) => call(suspendedAppealRoute, "POST", "/api/appeals/suspended", { body }),
  open: (h: Headers, cursor?: string) =>
    call(openAppealsRoute, "GET", `/api/moderation/appeals${cursor === undefined ? "" : `?cursor=${enc(cursor)}`}`, { headers: h }),
  decide: (id: string, decision: string, h: Headers) =>
    call(decideRoute, "POST", `/api/moderation/appeals/${enc(id)}/${enc(decision)}`, { headers: h, params: { id, decision } }),
};

export const team = {
  list: (h: Headers) => call(teamRoute, "GET", "/api/moderation/team", { headers: h }),
  grant: (body: unknown, h: Headers) => call(grantRoute, "POST", "/api/moderation/team", { body, headers: h }),
  revoke: (userId: string, h: Headers) =>
    call(revokeRoute, "DELETE", `/api/moderation/team/${enc(userId)}`, { headers: h, params: { userId } }),
};

/** `n` people of a couple of their own each (the reporters the SQL fills in), named `tag` + number. */
export async function people(tag: string, n: number) {
  const db = await getDb();
  await db.execute(sql`insert into users (id, email, password_hash, first_name, last_name, date_of_birth, email_verified_at)
    select md5(${tag} || 'u' || g)::uuid, ${tag} || g || '@example.test', 'x', 'Reporter' || g, 'Last', date '1990-01-01', now()
    from generate_series(1, ${n}) g`);
  await db.execute(sql`insert into couples (id, partner1_id, couple_name, status)
    select md5(${tag} || 'c' || g)::uuid, md5(${tag} || 'u' || g)::uuid, 'Couple ' || g, 'active'
    from generate_series(1, ${n}) g`);
}

/**
 * A restriction as sanctionCouple makes it, for lock-race's `whileHeld`: the partners' rows, the
 * couple, then its row, committed once the write under test waits.
 */
export const restricting = (couple: { coupleId: string; a: { userId: string }; b: { userId: string } }) => async (tx: ReservedSql) => {
  await tx`select id from users where id in (${couple.a.userId}, ${couple.b.userId}) order by id for key share`;
  await tx`select id from couples where id = ${couple.coupleId} for no key update`;
  await tx`insert into couple_sanctions (couple_id, kind, reason, ends_at) values (${couple.coupleId}, 'restrict', 'spam', now() + interval '7 days')`;
};
