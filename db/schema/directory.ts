import { bigint, integer, pgTable, timestamp, uuid } from "drizzle-orm/pg-core";
import { couples } from "./couples";

/**
 * A couple's 'most in common' ranking in the directory (lib/directory/common.ts): the first
 * COMMON_STORED discoverable couples sharing an interest with it, by interests in common and id,
 * from its interests as they were (`viewerMask`). The count depends on the viewer, so no index
 * holds that order; a page reads these ids and the couples changed since instead of ranking the
 * network. Only ids are kept: every read counts, filters and checks who may see them on live rows.
 * `floorCommon`/`floorId`: the last kept couple's key when more shared an interest (null: every
 * one of them is kept).
 */
export const directoryCommonRanks = pgTable("directory_common_ranks", {
  coupleId: uuid("couple_id")
    .primaryKey()
    .references(() => couples.id, { onDelete: "cascade" }),
  viewerMask: bigint("viewer_mask", { mode: "bigint" }).notNull(),
  coupleIds: uuid("couple_ids").array().notNull(),
  floorCommon: integer("floor_common"),
  floorId: uuid("floor_id"),
  computedAt: timestamp("computed_at", { withTimezone: true }).notNull(),
});
