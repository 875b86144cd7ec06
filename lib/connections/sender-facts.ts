import "server-only";
import { inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples } from "@/db/schema";
import { labelled } from "@/lib/couples/card";
import { couplesCompared, viewerCouple } from "@/lib/couples/queries";
import { directoryBand, interestsVenn } from "@/lib/directory/rules";
import { INTEREST_ROWS } from "@/lib/interests/catalogue";
import { distanceFromOwnKm } from "@/lib/locations/bands";

/** What a request shows of its sender beside their face and name (spec: the distance band and interests in common). */
export type SenderFacts = { distanceBand: string | null; interestsInCommon: string[] };

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
  for (const couple of await couplesCompared(db, inArray(couples.id, [...new Set(coupleIds)]))) {
    facts.set(couple.id, {
      distanceBand: directoryBand(distanceFromOwnKm(viewer.place, couple.place)),
      interestsInCommon: interestLabels(interestsVenn(viewer.interests, couple.interests).shared).map((interest) => interest.label),
    });
  }
  return facts;
}

type WithFacts<R extends { couple: object }> = R & { couple: R["couple"] & Partial<SenderFacts> };

/** A page of requests with their senders' facts (`GET /api/connections` and the inbox's first paint); a deleted couple has none. */
export async function withSenderFacts<P extends { data: readonly { couple: { id: string | null } }[] }>(
  db: Db,
  viewerUserId: string,
  page: P,
): Promise<Omit<P, "data"> & { data: WithFacts<P["data"][number]>[] }> {
  const facts = await senderFacts(
    db,
    viewerUserId,
    page.data.flatMap((request) => request.couple.id ?? []),
  );
  return {
    ...page,
    data: page.data.map((request) => ({
      ...request,
      couple: { ...request.couple, ...(request.couple.id === null ? undefined : facts.get(request.couple.id)) },
    })),
  };
}
