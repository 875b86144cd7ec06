import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { couples, locations, users } from "@/db/schema";
import { labelled } from "@/lib/couples/card";
import { viewerCouple } from "@/lib/couples/queries";
import { interestLists } from "@/lib/couples/rules";
import { directoryBand, interestsVenn } from "@/lib/directory/rules";
import { INTEREST_ROWS } from "@/lib/interests/catalogue";
import { shownDistanceKm } from "@/lib/locations/bands";

/** What a request shows of its sender beside their face and name (spec: the distance band and interests in common). */
export type SenderFacts = { distanceBand: string | null; interestsInCommon: string[] };

const partnerA = alias(users, "partner_a");
const partnerB = alias(users, "partner_b");
const interestLabels = labelled(INTEREST_ROWS);

/**
 * The distance band (between the shown points, each couple's privacy level applied, as the
 * directory measures) and the interests both couples share (labels), for each requesting couple:
 * one read for the list.
 */
export async function senderFacts(db: Db, viewerUserId: string, coupleIds: readonly string[]): Promise<Map<string, SenderFacts>> {
  const facts = new Map<string, SenderFacts>();
  if (coupleIds.length === 0) return facts;
  const viewer = await viewerCouple(db, viewerUserId);
  if (!viewer) return facts;
  const rows = await db
    .select({
      id: couples.id,
      interests: couples.interests,
      a: partnerA.interests,
      b: partnerB.interests,
      bId: partnerB.id,
      privacyLevel: locations.privacyLevel,
      latitude: locations.latitude,
      longitude: locations.longitude,
    })
    .from(couples)
    .leftJoin(locations, and(eq(locations.entityType, "couple"), eq(locations.entityId, couples.id)))
    .leftJoin(partnerA, eq(partnerA.id, couples.partner1Id))
    .leftJoin(partnerB, eq(partnerB.id, couples.partner2Id))
    .where(inArray(couples.id, [...new Set(coupleIds)]));
  for (const row of rows) {
    const theirs = interestLists([row.a ?? [], ...(row.bId ? [row.b ?? []] : [])], row.interests);
    const place = row.privacyLevel ? { privacyLevel: row.privacyLevel, latitude: row.latitude, longitude: row.longitude } : null;
    facts.set(row.id, {
      distanceBand: directoryBand(shownDistanceKm(viewer.place, place)),
      interestsInCommon: interestLabels(interestsVenn(viewer.interests, theirs).shared).map((interest) => interest.label),
    });
  }
  return facts;
}
