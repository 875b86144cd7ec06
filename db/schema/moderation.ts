/**
 * Moderation of couples: what moderators did (an append-only log), the actions standing on a
 * couple (warn, restrict, suspend, ban), the appeals against them, and the banned e-mail
 * addresses (a keyed hash, kept when the account is deleted).
 *
 * The log names people and couples by plain ids, without foreign keys: a deleted moderator or
 * couple must not rewrite the record (and the database refuses every UPDATE and DELETE on it:
 * the trigger in the migration).
 */
import { sql } from "drizzle-orm";
import { bigserial, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { couples } from "./couples";

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });
const createdAt = () => at("created_at").notNull().defaultNow();

/** Every moderator action, in order; `moderator_user_id` null: the spam rules acted by themselves. */
export const moderationLog = pgTable(
  "moderation_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The log's order: strictly increasing, so rows written in the same millisecond keep theirs. */
    seq: bigserial("seq", { mode: "number" }).notNull(),
    moderatorUserId: uuid("moderator_user_id"),
    action: text("action").notNull(),
    coupleId: uuid("couple_id"),
    /** The item acted on, when it is not the couple itself: a report, a post, a message, a person. */
    targetType: text("target_type"),
    targetId: uuid("target_id"),
    reason: text("reason"),
    note: text("note"),
    createdAt: createdAt(),
  },
  (t) => [
    // The log, newest first (keyset on seq, id), whole and by each filter.
    uniqueIndex("moderation_log_seq_idx").on(t.seq, t.id),
    index("moderation_log_moderator_idx").on(t.moderatorUserId, t.seq, t.id),
    index("moderation_log_couple_idx").on(t.coupleId, t.seq, t.id),
    index("moderation_log_action_idx").on(t.action, t.seq, t.id),
  ],
);

/**
 * An action standing on a couple: `warn` (shown once, `seen_at`), `restrict` (until `ends_at`, or
 * until a moderator decides when null), `suspend`, `ban`. Lifted with a reason; `created_by_user_id`
 * null: the spam rules restricted it by themselves.
 */
export const coupleSanctions = pgTable(
  "couple_sanctions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    coupleId: uuid("couple_id")
      .notNull()
      .references(() => couples.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    reason: text("reason").notNull(),
    note: text("note"),
    endsAt: at("ends_at"),
    createdByUserId: uuid("created_by_user_id"),
    createdAt: createdAt(),
    seenAt: at("seen_at"),
    liftedAt: at("lifted_at"),
    liftedByUserId: uuid("lifted_by_user_id"),
    liftReason: text("lift_reason"),
  },
  (t) => [
    index("couple_sanctions_couple_idx").on(t.coupleId, t.createdAt),
    index("couple_sanctions_standing_idx")
      .on(t.coupleId)
      .where(sql`${t.liftedAt} is null`),
  ],
);

/** One appeal per action, by one partner; decided by a moderator (by another than the one who acted when the team has two or more). */
export const moderationAppeals = pgTable(
  "moderation_appeals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    sanctionId: uuid("sanction_id")
      .notNull()
      .references(() => coupleSanctions.id, { onDelete: "cascade" }),
    userId: uuid("user_id"),
    body: text("body").notNull(),
    createdAt: createdAt(),
    decidedAt: at("decided_at"),
    decidedByUserId: uuid("decided_by_user_id"),
    /** `upheld` or `lifted`. */
    decision: text("decision"),
  },
  (t) => [
    uniqueIndex("moderation_appeals_sanction_idx").on(t.sanctionId),
    index("moderation_appeals_open_idx")
      .on(t.createdAt)
      .where(sql`${t.decidedAt} is null`),
  ],
);

/**
 * A banned partner's e-mail address as a keyed hash (never the text): registration refuses it. One
 * row per ban that holds it, so lifting a ban frees its addresses but those another ban holds.
 */
export const bannedEmails = pgTable(
  "banned_emails",
  {
    emailHash: text("email_hash").notNull(),
    /**
     * The ban holding it. No foreign key: a ban outlives its couple's deletion here (the accounts'
     * addresses stay refused). Null: kept before bans named their addresses and not matched to one
     * (0048), held for good.
     */
    sanctionId: uuid("sanction_id"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("banned_emails_hash_sanction_idx").on(t.emailHash, t.sanctionId),
    index("banned_emails_sanction_idx").on(t.sanctionId),
  ],
);

/**
 * Hello requests held by the spam rule (the same note to too many couples in a day): never shown
 * to the couple asked until a moderator delivers them; the sender is told they are being reviewed.
 */
export const heldRequests = pgTable(
  "held_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    fromCoupleId: uuid("from_couple_id")
      .notNull()
      .references(() => couples.id, { onDelete: "cascade" }),
    toCoupleId: uuid("to_couple_id")
      .notNull()
      .references(() => couples.id, { onDelete: "cascade" }),
    sentByUserId: uuid("sent_by_user_id"),
    note: text("note").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("held_requests_from_idx").on(t.fromCoupleId, t.createdAt),
    // The moderators' held list, oldest first a keyset page at a time (lib/safety/spam.ts couplesWithHeldHellos).
    index("held_requests_queue_idx").on(t.createdAt, t.id),
  ],
);
