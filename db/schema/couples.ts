import { sql } from "drizzle-orm";
import { bigint, boolean, index, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";
import { users } from "./identity";

export const couples = pgTable(
  "couples",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    partner1Id: uuid("partner1_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    partner2Id: uuid("partner2_id").references(() => users.id, { onDelete: "set null" }),
    coupleName: text("couple_name").notNull(),
    bio: text("bio"),
    photos: text("photos")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    coupleTypes: text("couple_types")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    interests: text("interests")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * The couple's interests as the directory counts and filters them: the union of both
     * partners' lists, or `interests` when both are empty. Kept by the triggers of migration
     * 0009 (hand-written part) on couples and users, so a GIN index can answer "any of".
     */
    matchInterests: text("match_interests")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * `match_interests` as a bitmask, one bit per catalogue interest (interest_mask, migration
     * 0011): 'most in common' counts shared interests as the popcount of two masks. Read as a
     * number (exact below 2^53; the catalogue test keeps it there), so no row carries a BigInt
     * that JSON cannot serialise.
     */
    matchInterestsMask: bigint("match_interests_mask", { mode: "number" })
      .notNull()
      .generatedAlwaysAs(sql`public.interest_mask(match_interests)`),
    /**
     * What the directory's search reads (lib/directory/queries.ts): the couple name, both
     * partners' first names and the place's name at its privacy level (nothing when hidden), so a
     * couple is found by 'Perpetua' or 'London' but never by a city it does not show. Kept by the
     * triggers of migration 0014 (hand-written part) on couples, users and locations.
     */
    searchText: text("search_text").notNull().default(""),
    /**
     * When what discover matches this couple on last changed: its interests (either partner's),
     * adventure styles, place, or whether it is discoverable. Set by the triggers of migration 0014
     * (hand-written part); a couple's stored suggestions take in every couple changed since they
     * were computed (lib/discover/queries.ts), so a new or changed couple reaches them at once.
     */
    matchChangedAt: timestamp("match_changed_at", { withTimezone: true }).notNull().defaultNow(),
    location: text("location"),
    placeId: text("place_id"),
    profileImageUrl: text("profile_image_url"),
    status: text("status").notNull().default("active"),
    isVerified: boolean("is_verified").notNull().default(false),
    partnerAVerified: boolean("partner_a_verified").notNull().default(false),
    partnerBVerified: boolean("partner_b_verified").notNull().default(false),
    partnerACompletedAt: timestamp("partner_a_completed_at", { withTimezone: true }),
    isVisible: boolean("is_visible").notNull().default(false),
    canCreatePaidEvents: boolean("can_create_paid_events").notNull().default(false),
    /**
     * How many partners have their photo verified (0-2): the 'Photo verified' badges and the
     * directory's filter. Kept by the trigger on photo_verifications (migration 0028).
     */
    photoVerifiedPartners: smallint("photo_verified_partners").notNull().default(0),
    /** 'Both of us approve new connections': a request opens only when both partners accepted it. */
    bothApproveConnections: boolean("both_approve_connections").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("couples_partner1_key").on(t.partner1Id),
    uniqueIndex("couples_partner2_key").on(t.partner2Id),
    // The directory's newest-first keyset, discoverable couples only. Ascending: read
    // backwards it is (created_at desc, id desc) with Postgres's default NULLS FIRST, which an
    // explicit `desc nulls last` index would not match.
    index("couples_discoverable_newest_idx")
      .on(t.createdAt, t.id)
      .where(sql`${t.status} = 'active' and ${t.isVisible}`),
    // The forum's mention suggestions: any word of the name starting with what was typed
    // (lib/forum/queries.ts `mentionSuggestions`), indexed at 100,000 couples.
    index("couples_name_words_idx").using("gin", sql`to_tsvector('simple', ${t.coupleName})`),
    // The directory's interest filter and 'most in common' candidates, discoverable couples only.
    // Its search uses couples_discoverable_search_trgm_idx (pg_trgm, hand-written in 0014).
    index("couples_discoverable_interests_idx")
      .using("gin", t.matchInterests)
      .where(sql`${t.status} = 'active' and ${t.isVisible}`),
    // Discover's couples changed since a stored list was computed, and the couples changed last
    // that a search on a request ranks (lib/discover/queries.ts), discoverable couples only.
    index("couples_discoverable_match_changed_idx")
      .on(t.matchChangedAt)
      .where(sql`${t.status} = 'active' and ${t.isVisible}`),
    // The directory's 'Photo verified' filter, newest first (its default order without a place).
    index("couples_discoverable_photo_verified_idx")
      .on(t.createdAt, t.id)
      .where(sql`${t.status} = 'active' and ${t.isVisible} and ${t.photoVerifiedPartners} > 0`),
    // 'Most in common' ranks every discoverable couple sharing an interest: an index-only scan
    // of this narrow index reads the masks without visiting the wide rows.
    index("couples_discoverable_common_idx")
      .on(t.matchInterestsMask, t.id)
      .where(sql`${t.status} = 'active' and ${t.isVisible}`),
    // Discover's candidates ranked by what they have in common with the viewer, interests and
    // styles (lib/discover/queries.ts): an index-only scan, as the directory's of the one above.
    index("couples_discoverable_match_idx")
      .on(t.matchInterestsMask, t.coupleTypes, t.id)
      .where(sql`${t.status} = 'active' and ${t.isVisible}`),
  ],
);

export const invitations = pgTable(
  "invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    coupleId: uuid("couple_id")
      .notNull()
      .references(() => couples.id, { onDelete: "cascade" }),
    inviterId: uuid("inviter_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    partnerEmail: text("partner_email").notNull(),
    partnerFirstName: text("partner_first_name").notNull(),
    partnerLastName: text("partner_last_name").notNull(),
    /** The e-mailed link's secret: accepting with it proves the invited address. */
    tokenHash: text("token_hash").notNull(),
    /**
     * The shareable link's secret, shown to the inviter: accepting with it proves nothing about
     * the address, so that account must verify its e-mail like any other.
     */
    shareTokenHash: text("share_token_hash"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("invitations_token_hash_key").on(t.tokenHash),
    uniqueIndex("invitations_share_token_hash_key").on(t.shareTokenHash),
    index("invitations_couple_idx").on(t.coupleId),
    index("invitations_email_idx").on(t.partnerEmail),
    // At most one open invitation per couple and address; an expired one is revoked before a new one is made.
    uniqueIndex("invitations_open_couple_email_key")
      .on(t.coupleId, t.partnerEmail)
      .where(sql`${t.acceptedAt} is null and ${t.revokedAt} is null`),
  ],
);
