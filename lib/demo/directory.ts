/**
 * The directory's demo neighbourhood: a few dozen couples around several cities with
 * overlapping interests, every privacy level represented. Idempotent like the rest of the seed:
 * people are upserted on their e-mail, couples on partner A, locations on their entity.
 * One password hash for all of them (they are there to be found, not to sign in often).
 */
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, users } from "@/db/schema";
import { saveEntityLocation } from "@/lib/locations/place";
import { DIRECTORY_COUPLES, directoryEmail } from "./data";

const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000);

export async function seedDirectory(db: Db, passwordHash: string): Promise<number> {
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
        location: place.location,
        placeId: place.placeId,
        latitude: place.latitude,
        longitude: place.longitude,
        city: place.city,
        state: place.state,
        country: place.country,
        countryCode: place.countryCode,
      };
      const { email: _email, ...rest } = values;
      const [row] = await db
        .insert(users)
        .values(values)
        .onConflictDoUpdate({ target: users.email, set: { ...rest, updatedAt: new Date() } })
        .returning({ id: users.id });
      ids.push(row!.id);
    }
    const values = {
      partner1Id: ids[0]!,
      partner2Id: ids[1]!,
      coupleName: `${a.firstName} & ${b.firstName}`,
      bio: couple.bio,
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
