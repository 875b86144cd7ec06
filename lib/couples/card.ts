/**
 * A couple as a list shows it to another couple (the directory, discover, the dashboard's near
 * and suggested couples; next, the inbox): its face, name, badge, place at its privacy level,
 * adventure styles and where the viewer's couple stands with it, never anything private. One shape, so every list names the couple's id
 * `coupleId` and a client reads every card the same way. Pure and browser-safe.
 */
import type { NamedPlace } from "@/lib/locations/privacy";
import type { ConnectionState } from "@/lib/connections/rules";
import { photoBadge, type PhotoBadge } from "@/lib/verification/rules";
import { COUPLE_TYPES, coupleBadge, shownCoupleLocation, type BadgeFacts, type CoupleBadge } from "./rules";

export type CoupleCard = {
  coupleId: string;
  coupleName: string;
  profileImageUrl: string | null;
  badge: CoupleBadge;
  /** 'Photo verified' (one partner) or 'Both photo verified'; null when neither is (lib/verification/rules.ts). */
  photoBadge: PhotoBadge | null;
  /** At the couple's privacy level; null when hidden. */
  location: string | null;
  coupleTypes: { value: string; label: string }[];
  /** The viewer's couple and this one: 'Say hello', 'Request sent' or 'Message' (lib/connections/states.ts). */
  connection: ConnectionState;
};

/** What a card is made of: the couple's row and its place, left-joined (null, or a row of nulls, when it has none). */
export type CardRow = BadgeFacts & {
  id: string;
  coupleName: string;
  profileImageUrl: string | null;
  coupleTypes: readonly string[];
  photoVerifiedPartners: number;
  place: (NamedPlace & { id: string | null }) | null;
};

/** Values with their options' labels; a value no longer offered (a legacy style) keeps showing, under its own name. */
export const labelled = (options: readonly { value: string; label: string }[]) => {
  const labels = new Map(options.map((option) => [option.value, option.label]));
  return (values: readonly string[]) => values.map((value) => ({ value, label: labels.get(value) ?? value }));
};

/** A couple's adventure styles with their labels. */
export const coupleTypeOptions = labelled(COUPLE_TYPES);

/** The card another couple sees (lib/safety/visibility.ts decides whether they see the couple at all). */
export function coupleCard(row: CardRow, connection: ConnectionState): CoupleCard {
  return {
    coupleId: row.id,
    coupleName: row.coupleName,
    profileImageUrl: row.profileImageUrl,
    badge: coupleBadge(row),
    photoBadge: photoBadge(row.photoVerifiedPartners),
    location: shownCoupleLocation(row.place?.id ? row.place : null, "other", null),
    coupleTypes: coupleTypeOptions(row.coupleTypes),
    connection,
  };
}
