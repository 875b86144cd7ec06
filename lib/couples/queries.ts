import "server-only";
import { photoBadge, type PhotoBadge } from "@/lib/verification/rules";
import { and, eq, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { placeholderSql, preparedPer } from "@/db/prepared";
import { couples, locations, users } from "@/db/schema";
import { ageOn } from "@/lib/auth/rules";
import { AppError } from "@/lib/errors";
import { INTEREST_ROWS } from "@/lib/interests/catalogue";
import { interestsVenn, directoryBand, type CoupleVenn } from "@/lib/directory/rules";
import { distanceFromOwnKm, type PlacePoint } from "@/lib/locations/bands";
import type { PrivacyLevel } from "@/lib/locations/privacy";
import { locationColumns } from "@/lib/locations/place";
import { coupleOfUser, notBlockedBetween } from "@/lib/safety/blocks";
import { viewerOf } from "@/lib/safety/visibility";
import { canonicalId } from "@/lib/fields";
import { publicPersonColumns, type PublicPersonRow } from "@/lib/users/projections";
import { coupleBadge, coupleInterests, interestLists, shownCoupleLocation, type CoupleBadge } from "./rules";
import { coupleTypeOptions, labelled } from "./card";
import { partnerOf } from "@/lib/membership/partner";

export type { CoupleBadge } from "./rules";

export type CoupleProfile = {
  id: string;
  coupleName: string;
  bio: string | null;
  profileImageUrl: string | null;
  photos: string[];
  coupleTypes: { value: string; label: string }[];
  /** Both partners' interests together; `shared` marks those both chose. */
  interests: { value: string; label: string; shared: boolean }[];
  /** The location as the viewer may see it (privacy level applied; null when hidden). */
  location: string | null;
  status: string;
  isVerified: boolean;
  badge: CoupleBadge;
  /** 'Photo verified' or 'Both photo verified' (lib/verification/rules.ts), or null. */
  photoBadge: PhotoBadge | null;
  /** First name and age for everyone; the last name only for the couple's own partners. */
  partners: {
    id: string;
    role: "A" | "B";
    firstName: string;
    lastName?: string;
    age: number | null;
    occupation: string | null;
    avatarUrl: string | null;
    interests: { value: string; label: string }[];
  }[];
  /** True when the viewer is one of the two partners. */
  isOwn: boolean;
  /** Interest values the two couples share, only the viewer's, only theirs, and all four people's; null on the viewer's own profile. */
  interestsVenn: CoupleVenn | null;
  /** 'within 10 km' … 'further away' between the shown points; null when either place is hidden, country-level or unknown (and on one's own profile). */
  distanceBand: string | null;
};

/** What another couple's profile needs of the viewer's own couple: its partners' interests and its place. */
export type ViewerCouple = { id: string; interests: (readonly string[])[]; place: PlacePoint | null };

export const coupleNotFound = () => new AppError("NOT_FOUND", "Couple not found");

const partnerA = alias(users, "partner_a");
const partnerB = alias(users, "partner_b");

/**
 * A partner as the couple's profile reads them. The last name is private to the couple: the
 * profile drops it for any other viewer (see `partners` below).
 */
const personColumns = (t: typeof partnerA | typeof partnerB) => ({
  ...publicPersonColumns(t),
  lastName: t.lastName,
  interests: t.interests,
});
/** A left-joined partner: absent (partner B not joined yet) reads as null or as all-null columns. */
type Person = PublicPersonRow & { lastName: string | null; interests: string[] | null };

const interestOptions = labelled(INTEREST_ROWS);

function partner(person: Person | null, role: "A" | "B"): (CoupleProfile["partners"][number] & { lastName: string }) | null {
  if (!person?.id) return null;
  return {
    id: person.id,
    role,
    firstName: person.firstName ?? "",
    lastName: person.lastName ?? "",
    age: person.dateOfBirth ? ageOn(person.dateOfBirth) : null,
    occupation: person.occupation,
    avatarUrl: person.avatarUrl,
    interests: interestOptions(person.interests ?? []),
  };
}

/**
 * A couple's profile row as `viewer` (SQL naming the person) reads it: the couple, its place, both
 * partners, and whether a block stands between; for another couple's profile, `compared`: the
 * viewer's own couple as the profile compares against it (comparedStatement), in the same round trip.
 */
function profileStatement(db: Db, viewer: SQL, where: SQL, compare: boolean) {
  return db
    .select({
      couple: {
        id: couples.id,
        coupleName: couples.coupleName,
        bio: couples.bio,
        profileImageUrl: couples.profileImageUrl,
        photos: couples.photos,
        coupleTypes: couples.coupleTypes,
        interests: couples.interests,
        location: couples.location,
        status: couples.status,
        isVerified: couples.isVerified,
        isVisible: couples.isVisible,
        partnerAVerified: couples.partnerAVerified,
        partnerBVerified: couples.partnerBVerified,
        photoVerifiedPartners: couples.photoVerifiedPartners,
      },
      place: locationColumns,
      a: personColumns(partnerA),
      b: personColumns(partnerB),
      notBlocked: sql<boolean>`${notBlockedBetween(coupleOfUser(viewer), couples.id)}`,
      compared: compare ? comparedJson(db, partnerOf(viewer)) : sql<ComparedRow | null>`null`,
    })
    .from(couples)
    .leftJoin(locations, and(eq(locations.entityType, "couple"), eq(locations.entityId, couples.id)))
    .leftJoin(partnerA, eq(partnerA.id, couples.partner1Id))
    .leftJoin(partnerB, eq(partnerB.id, couples.partner2Id))
    .where(where);
}

/** Prepared, the viewer's own profile and another couple's: every opening of a profile reads one. */
const ownProfile = preparedPer((db) => {
  const viewer = placeholderSql("uid");
  return profileStatement(db, viewer, partnerOf(viewer), false).prepare("couple_profile_own");
});
const otherProfile = preparedPer((db) =>
  profileStatement(db, placeholderSql("uid"), eq(couples.id, sql.placeholder("cid")), true).prepare("couple_profile_other"),
);

/**
 * A couple's profile as `viewerUserId` may see it, in one query (couple, its location, both
 * partners), as the one rule says (lib/safety/visibility.ts): its partners always see it; another
 * couple only while it is discoverable and not blocked either way, and then with the location at
 * its privacy level. Hidden and missing read the same: ids are not probed.
 * Without an id, the viewer's own couple (NOT_FOUND when they have none).
 */
export async function loadCoupleProfile(db: Db, viewerUserId: string, id?: string): Promise<CoupleProfile> {
  const coupleId = id === undefined ? undefined : canonicalId(id);
  if (coupleId === null) throw coupleNotFound();
  // Another couple's profile compares against the viewer's couple, read in the same statement.
  const [row] =
    coupleId === undefined
      ? await ownProfile(db).execute({ uid: viewerUserId })
      : await otherProfile(db).execute({ uid: viewerUserId, cid: coupleId });
  if (!row) throw coupleNotFound();

  const { couple, place } = row;
  const partners = [partner(row.a, "A"), partner(row.b, "B")].filter((p) => p !== null);
  const isOwn = row.a?.id === viewerUserId || row.b?.id === viewerUserId;
  const seenAs = viewerOf({ ...couple, own: isOwn, blockedEitherWay: !row.notBlocked });
  // Hidden, inactive, blocked either way and missing all read the same.
  if (!seenAs) throw coupleNotFound();
  const viewer = isOwn || !row.compared ? null : comparedOf(row.compared);
  const rawInterests = (person: Person | null) => (person?.id ? (person.interests ?? []) : null);
  const theirLists = [rawInterests(row.a), rawInterests(row.b)].filter((list) => list !== null);
  return {
    id: couple.id,
    coupleName: couple.coupleName,
    bio: couple.bio,
    profileImageUrl: couple.profileImageUrl,
    photos: couple.photos,
    coupleTypes: coupleTypeOptions(couple.coupleTypes),
    interests: coupleInterests(
      partners.map((person) => person.interests),
      interestOptions(couple.interests),
    ),
    location: shownCoupleLocation(place, seenAs, couple.location),
    status: couple.status,
    isVerified: couple.isVerified,
    badge: coupleBadge(couple),
    photoBadge: photoBadge(couple.photoVerifiedPartners),
    // Other couples see first names and ages only: never a last name, nor a date of birth.
    partners: isOwn ? partners : partners.map(({ lastName: _lastName, ...shown }) => shown),
    isOwn,
    interestsVenn: viewer ? interestsVenn(viewer.interests, interestLists(theirLists, couple.interests)) : null,
    distanceBand: viewer && place ? directoryBand(distanceFromOwnKm(viewer.place, place)) : null,
  };
}

/**
 * Couples as another couple compares against them, in one query: each partner's interests (the
 * couple's own stored list when both are empty) and the couple's place.
 */
function comparedStatement(db: Db, where: SQL) {
  // Each column named by its key, so a statement can also take a row of it as JSON (`comparedJson`).
  return db
    .select({
      id: sql<string>`${couples.id}`.as("id"),
      interests: sql<string[]>`${couples.interests}`.as("interests"),
      a: sql<string[] | null>`${partnerA.interests}`.as("a"),
      b: sql<string[] | null>`${partnerB.interests}`.as("b"),
      bId: sql<string | null>`${partnerB.id}`.as("bId"),
      privacyLevel: sql<PrivacyLevel | null>`${locations.privacyLevel}`.as("privacyLevel"),
      latitude: sql<number | null>`${locations.latitude}`.as("latitude"),
      longitude: sql<number | null>`${locations.longitude}`.as("longitude"),
    })
    .from(couples)
    .leftJoin(locations, and(eq(locations.entityType, "couple"), eq(locations.entityId, couples.id)))
    .leftJoin(partnerA, eq(partnerA.id, couples.partner1Id))
    .leftJoin(partnerB, eq(partnerB.id, couples.partner2Id))
    .where(where);
}

type ComparedRow = Awaited<ReturnType<typeof comparedStatement>>[number];

/** SQL: the couple `where` chooses as comparedStatement reads it, as one JSON value (null when none). */
const comparedJson = (db: Db, where: SQL): SQL<ComparedRow | null> =>
  sql<ComparedRow | null>`(select row_to_json(compared) from (${comparedStatement(db, where).limit(1)}) compared)`;

const comparedOf = (row: ComparedRow): ViewerCouple => ({
  id: row.id,
  interests: interestLists([row.a ?? [], ...(row.bId ? [row.b ?? []] : [])], row.interests),
  place: row.privacyLevel ? { privacyLevel: row.privacyLevel, latitude: row.latitude, longitude: row.longitude } : null,
});

/** The couples `where` chooses, each as comparedStatement reads it. */
export async function couplesCompared(db: Db, where: SQL): Promise<ViewerCouple[]> {
  return (await comparedStatement(db, where)).map(comparedOf);
}

/** Prepared: the directory, a profile and the requests list each compare against the viewer first. */
const viewerCompared = preparedPer((db) => comparedStatement(db, partnerOf(placeholderSql("userId"))).prepare("viewer_couple_compared"));

/** The viewer's couple as another couple's profile compares against it. */
export async function viewerCouple(db: Db, viewerUserId: string): Promise<ViewerCouple | null> {
  const [row] = await viewerCompared(db).execute({ userId: viewerUserId });
  return row ? comparedOf(row) : null;
}

/** The id of the couple the user belongs to, as either partner; null when none. */
export async function coupleIdOf(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ id: couples.id }).from(couples).where(partnerOf(userId)).limit(1);
  return row?.id ?? null;
}
