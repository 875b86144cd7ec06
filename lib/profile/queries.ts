import "server-only";
import { and, eq, ne, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { preparedPer } from "@/db/prepared";
import { couples, sessions, users } from "@/db/schema";
import { ageOn } from "@/lib/auth/rules";
import { liveSessionWhere, type SessionRead } from "@/lib/auth/sessions";
import { isProfileComplete } from "@/lib/auth/users";
import { userNotFound } from "@/lib/errors";
import { partnerOf } from "@/lib/membership/partner";
import { partnersVenn } from "@/lib/directory/rules";
import { partnerColumns, selfColumns, type PartnerRow, type SelfRow } from "@/lib/users/projections";

const partner = alias(users, "partner");

/** The spec's per-partner profile. Exact coordinates are never part of it. */
function partnerProfile(person: PartnerRow | null) {
  if (!person?.id) return null;
  return {
    id: person.id,
    firstName: person.firstName,
    lastName: person.lastName,
    age: person.dateOfBirth ? ageOn(person.dateOfBirth) : null,
    dateOfBirth: person.dateOfBirth,
    occupation: person.occupation,
    location: person.location,
    city: person.city,
    state: person.state,
    country: person.country,
    countryCode: person.countryCode,
    placeId: person.placeId,
    avatarUrl: person.avatarUrl,
    interests: person.interests ?? [],
  };
}

export type CurrentUser = ReturnType<typeof shapeCurrentUser>;

function shapeCurrentUser(row: { me: SelfRow; couple: typeof couples.$inferSelect | null; partner: PartnerRow | null }) {
  const { me, couple } = row;
  const mine = partnerProfile(me)!;
  const theirs = partnerProfile(row.partner);
  const isPartner1 = couple?.partner1Id === me.id;
  return {
    userId: me.id!,
    email: me.email!,
    emailConfirmedAt: me.emailVerifiedAt?.toISOString() ?? null,
    firstName: me.firstName!,
    lastName: me.lastName!,
    dateOfBirth: me.dateOfBirth!,
    occupation: me.occupation,
    userAvatarUrl: me.avatarUrl,
    coupleId: couple?.id ?? null,
    coupleName: couple?.coupleName ?? null,
    coupleBio: couple?.bio ?? null,
    photos: couple?.photos ?? [],
    coupleTypes: couple?.coupleTypes ?? [],
    interests: couple?.interests.length ? couple.interests : (me.interests ?? []),
    location: couple?.location ?? me.location,
    placeId: couple?.placeId ?? me.placeId,
    profileImageUrl: couple?.profileImageUrl ?? null,
    coupleStatus: couple?.status ?? null,
    isVerified: couple?.isVerified ?? false,
    partnerAVerified: couple?.partnerAVerified ?? false,
    partnerBVerified: couple?.partnerBVerified ?? false,
    isVisible: couple?.isVisible ?? false,
    canCreatePaidEvents: couple?.canCreatePaidEvents ?? false,
    partner1Id: couple?.partner1Id ?? null,
    partner2Id: couple?.partner2Id ?? null,
    partner1: couple ? (isPartner1 ? mine : theirs) : null,
    partner2: couple ? (isPartner1 ? theirs : mine) : null,
    age: mine.age,
    partnerAge: theirs?.age ?? null,
    partnerFirstName: theirs?.firstName ?? null,
    partnerOccupation: theirs?.occupation ?? null,
    partnerLocation: theirs?.location ?? null,
    partnerPlaceId: theirs?.placeId ?? null,
    partnerCity: theirs?.city ?? null,
    partnerState: theirs?.state ?? null,
    partnerCountry: theirs?.country ?? null,
    /** The two partners' interests compared (the profile's Venn); from the row already read, no extra query. */
    interestsVenn: partnersVenn(mine.interests, theirs?.interests ?? []),
    meta: { version: "v2" },
  };
}

/** The signed-in user, their couple and their partner in one query; each use adds how the user is found. */
const currentUserQuery = (db: Db) =>
  db
    .select({ me: selfColumns(users), couple: couples, partner: partnerColumns(partner) })
    .from(users)
    .leftJoin(couples, partnerOf(users.id))
    .leftJoin(partner, and(ne(partner.id, users.id), or(eq(partner.id, couples.partner1Id), eq(partner.id, couples.partner2Id))));

const byUserId = preparedPer((db) =>
  currentUserQuery(db)
    .where(eq(users.id, sql.placeholder("userId")))
    .prepare("current_user_by_id"),
);
const bySession = preparedPer((db) =>
  currentUserQuery(db).innerJoin(sessions, eq(sessions.userId, users.id)).where(liveSessionWhere()).prepare("current_user_by_session"),
);

type CurrentUserAnswer = { user: CurrentUser; profileComplete: boolean };

function answer(row: Parameters<typeof shapeCurrentUser>[0]): CurrentUserAnswer {
  const user = shapeCurrentUser(row);
  return { user, profileComplete: isProfileComplete(user) };
}

/** The signed-in user, their couple and their partner, in one query. */
export async function loadCurrentUser(db: Db, userId: string): Promise<CurrentUserAnswer> {
  const [row] = await byUserId(db).execute({ userId });
  if (!row) throw userNotFound();
  return answer(row);
}

/**
 * The current user's call in one round trip: the session's liveness (as activeSessionUser) and
 * the user, their couple and their partner. Null when the session is not live.
 */
export const currentUserBySession: SessionRead<CurrentUserAnswer> = async (db, sessionId) => {
  const [row] = await bySession(db).execute({ sid: sessionId, now: new Date().toISOString() });
  return row ? { userId: row.me.id!, value: answer(row) } : null;
};
