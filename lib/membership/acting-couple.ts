import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Role } from "./roles";

/**
 * The acting couple: the signed-in person and the couple they act for, read with their session
 * (lib/auth/users.ts, in the same statement as the route guard's flags) and handed to every
 * handler that needs a couple (lib/http/access.ts, `complete-profile`). Every read and write of
 * a couple's data is scoped by it; a handler never looks the couple up itself.
 */
export type ActingCouple = {
  userId: string;
  firstName: string;
  role: Role;
  coupleId: string;
  coupleName: string;
  coupleImageUrl: string | null;
  coupleCreatedAt: Date;
  /** Both partners (one while partner B has not joined), the acting person among them. */
  partnerIds: string[];
  /** The couple's standing: whether both partners must accept a connection request. */
  bothApprove: boolean;
  /** The couple's standing: whether it may draft paid events. */
  canCreatePaidEvents: boolean;
};

type CoupleColumns = {
  id: AnyPgColumn<{ data: string }>;
  coupleName: AnyPgColumn<{ data: string }>;
  profileImageUrl: AnyPgColumn<{ data: string }>;
  createdAt: AnyPgColumn<{ data: Date }>;
  partner1Id: AnyPgColumn<{ data: string }>;
  partner2Id: AnyPgColumn<{ data: string }>;
  bothApproveConnections: AnyPgColumn<{ data: boolean }>;
  canCreatePaidEvents: AnyPgColumn<{ data: boolean }>;
};

/**
 * The couple's columns the acting couple is made of, flat (a statement may nest them in its own
 * select), taken from `couples` or an alias of it left-joined to the person.
 */
export const actingCoupleColumns = <T extends CoupleColumns>(couple: T) => ({
  coupleId: couple.id,
  coupleName: couple.coupleName,
  coupleImageUrl: couple.profileImageUrl,
  coupleCreatedAt: couple.createdAt,
  partner1Id: couple.partner1Id,
  partner2Id: couple.partner2Id,
  bothApprove: couple.bothApproveConnections,
  canCreatePaidEvents: couple.canCreatePaidEvents,
});

/** A person's row with their left-joined couple's columns (all null when they have no couple), as the session read selects it. */
export type ActingRow = {
  id: string;
  firstName: string | null;
  role: Role;
  coupleId: string | null;
  coupleName: string | null;
  coupleImageUrl: string | null;
  coupleCreatedAt: Date | null;
  partner1Id: string | null;
  partner2Id: string | null;
  bothApprove: boolean | null;
  canCreatePaidEvents: boolean | null;
};

/** The acting couple of a person's row: null when they have no couple. */
export function actingCoupleOf(row: ActingRow): ActingCouple | null {
  if (row.coupleId === null || row.partner1Id === null) return null;
  return {
    userId: row.id,
    firstName: row.firstName ?? "",
    role: row.role,
    coupleId: row.coupleId,
    coupleName: row.coupleName ?? "",
    coupleImageUrl: row.coupleImageUrl,
    coupleCreatedAt: row.coupleCreatedAt ?? new Date(0),
    partnerIds: row.partner2Id ? [row.partner1Id, row.partner2Id] : [row.partner1Id],
    bothApprove: row.bothApprove ?? false,
    canCreatePaidEvents: row.canCreatePaidEvents ?? false,
  };
}
