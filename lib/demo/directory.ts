/**
 * The directory's demo neighbourhood: a few dozen couples around several cities with
 * overlapping interests, every privacy level represented, each with a main photo and both
 * partners' photos (faces first: the directory's cards, discover and profiles show them).
 * Idempotent like the rest of the seed: people are upserted on their e-mail, couples on partner
 * A, locations on their entity, and pictures already stored are kept. One password hash for all
 * of them (they are there to be found, not to sign in often).
 */
import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, users } from "@/db/schema";
import { saveEntityLocation } from "@/lib/locations/place";
import { daysAgo, upsertUser } from "./accounts";
import { DIRECTORY_COUPLES, directoryEmail } from "./data";
import { coupleInitials, demoImage, personInitials } from "./images";

/** Pictures by e-mail: each partner's avatar, and the couple's main photo under partner A's. */
export type DirectoryPictures = { avatars: Map<string, string>; mains: Map<string, string> };

/**
 * The directory couples' pictures: those already stored (a re-seed) are kept, the missing ones
 * drawn and stored. Before the seed's transaction: storing is slow.
 */
export async function directoryPictures(db: Db): Promise<DirectoryPictures> {
  const emails = DIRECTORY_COUPLES.flatMap((c) => [directoryEmail(c.partnerA.firstName), directoryEmail(c.partnerB.firstName)]);
  const stored = await db
    .select({ email: users.email, avatarUrl: users.avatarUrl, main: couples.profileImageUrl })
    .from(users)
    .leftJoin(couples, eq(couples.partner1Id, users.id))
    .where(inArray(users.email, emails));
  const storedOf = new Map(stored.map((row) => [row.email, row]));
  const pictures: DirectoryPictures = { avatars: new Map(), mains: new Map() };
  for (const { partnerA: a, partnerB: b } of DIRECTORY_COUPLES) {
    for (const person of [a, b]) {
      const email = directoryEmail(person.firstName);
      pictures.avatars.set(
        email,
        storedOf.get(email)?.avatarUrl ?? (await demoImage(personInitials(person), `dir.${person.firstName}`, "avatar")),
      );
    }
    const email = directoryEmail(a.firstName);
    pictures.mains.set(
      email,
      storedOf.get(email)?.main ?? (await demoImage(coupleInitials(a, b), `dir.${a.firstName} & ${b.firstName}`, "couple-main")),
    );
  }
  return pictures;
}

export async function seedDirectory(db: Db, passwordHash: string, pictures: DirectoryPictures): Promise<number> {
  for (const couple of DIRECTORY_COUPLES) {
    const { place, partnerA: a, partnerB: b } = couple;
    const ids: string[] = [];
    for (const person of [a, b]) {
      const values = {
        email: directoryEmail(person.firstName),
        passwordHash,
        emailVerifiedAt: daysAgo(couple.joinedDaysAgo + 1),
        firstName: person.firstName,
        lastName: person.lastName,
        dateOfBirth: person.dateOfBirth,
        occupation: person.occupation,
        interests: person.interests,
        avatarUrl: pictures.avatars.get(directoryEmail(person.firstName))!,
        location: place.location,
        placeId: place.placeId,
        latitude: place.latitude,
        longitude: place.longitude,
        city: place.city,
        state: place.state,
        country: place.country,
        countryCode: place.countryCode,
      };
      ids.push(await upsertUser(db, values));
    }
    const values = {
      partner1Id: ids[0]!,
      partner2Id: ids[1]!,
      coupleName: `${a.firstName} & ${b.firstName}`,
      bio: couple.bio,
      profileImageUrl: pictures.mains.get(directoryEmail(a.firstName))!,
      coupleTypes: couple.coupleTypes,
      interests: [...new Set([...a.interests, ...b.interests])],
      location: place.location,
      placeId: place.placeId,
      status: "active",
      partnerAVerified: true,
      partnerBVerified: couple.verified,
      isVerified: couple.verified,
      isVisible: true,
      partnerACompletedAt: daysAgo(couple.joinedDaysAgo),
      createdAt: daysAgo(couple.joinedDaysAgo),
    };
    const [row] = await db
      .insert(couples)
      .values(values)
      .onConflictDoUpdate({ target: couples.partner1Id, set: { ...values, updatedAt: sql`now()` } })
      .returning({ id: couples.id });
    await saveEntityLocation(db, { entityType: "couple", entityId: row!.id }, place, couple.privacyLevel);
  }
  return DIRECTORY_COUPLES.length;
}
