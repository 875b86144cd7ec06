/**
 * Plans: a meetup two talking couples agree inside their conversation (lib/plans).
 *
 * Times belong to the place: `starts_local`/`ends_local` are its wall-clock time ('2026-12-14T19:30')
 * and `time_zone` its IANA zone, the truth a daylight-saving change cannot move; `starts_at`/`ends_at`
 * are the instants they mean, kept beside them for ordering, 'upcoming' and the reminders' sweep.
 */
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { couples } from "./couples";
import { users } from "./identity";
import { conversations } from "./messages";

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

export const plans = pgTable(
  "plans",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    conversationId: uuid("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    /** Who proposed it; they and their partner may cancel it. */
    proposerUserId: uuid("proposer_user_id").references(() => users.id, { onDelete: "set null" }),
    proposerCoupleId: uuid("proposer_couple_id").references(() => couples.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    startsLocal: text("starts_local").notNull(),
    endsLocal: text("ends_local"),
    timeZone: text("time_zone").notNull(),
    startsAt: at("starts_at").notNull(),
    endsAt: at("ends_at"),
    /** The place search's id; null when the place was typed by hand (the search was down) with its zone chosen. */
    placeId: text("place_id"),
    placeName: text("place_name").notNull(),
    placeCity: text("place_city"),
    placeCountry: text("place_country"),
    venue: text("venue"),
    note: text("note"),
    /** Who wrote the note as it stands (any of the four may rewrite it): their words go with their account. */
    noteByUserId: uuid("note_by_user_id").references(() => users.id, { onDelete: "set null" }),
    /** Rises with each change of what, when or where (the calendar file's SEQUENCE). */
    sequence: integer("sequence").notNull().default(0),
    cancelledAt: at("cancelled_at"),
    cancelReason: text("cancel_reason"),
    /** Who cancelled it with `cancel_reason`, their words (null when the app ended it, or once they deleted their account). */
    cancelledByUserId: uuid("cancelled_by_user_id").references(() => users.id, { onDelete: "set null" }),
    /** The reminders sent for the current time (cleared when the time moves): each goes once. */
    eveningRemindedAt: at("evening_reminded_at"),
    soonRemindedAt: at("soon_reminded_at"),
    /** 'How was it?' was asked of the four (once, from the scheduled work, after the meetup). */
    feedbackAskedAt: at("feedback_asked_at"),
    /**
     * When both couples had said 'Great' ('You met on ...'): set once and kept, so an answer
     * changed afterwards never shows the other couple what it became.
     */
    metConfirmedAt: at("met_confirmed_at"),
    createdAt: at("created_at").notNull().defaultNow(),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (t) => [
    // A conversation's plans by time (its card list, the limit of upcoming plans).
    index("plans_conversation_starts_idx").on(t.conversationId, t.startsAt),
    // An account's deletion sets its person's references to null (the foreign keys' actions) and
    // finds the words they wrote: the notes, and the reasons they cancelled with.
    index("plans_proposer_user_idx")
      .on(t.proposerUserId)
      .where(sql`${t.proposerUserId} is not null`),
    index("plans_note_by_user_idx")
      .on(t.noteByUserId)
      .where(sql`${t.noteByUserId} is not null`),
    index("plans_cancelled_by_user_idx")
      .on(t.cancelledByUserId)
      .where(sql`${t.cancelledByUserId} is not null`),
    // The reminders' sweep: plans not cancelled, by start.
    index("plans_open_starts_idx")
      .on(t.startsAt)
      .where(sql`${t.cancelledAt} is null`),
    check("plans_wall_clock_check", sql`${t.startsLocal} ~ '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}$'`),
  ],
);

/** One person's answer to a plan; none yet is 'not yet'. A change of the plan deletes them all. */
export const planAnswers = pgTable(
  "plan_answers",
  {
    planId: uuid("plan_id")
      .notNull()
      .references(() => plans.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    answer: text("answer").notNull(),
    answeredAt: at("answered_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.planId, t.userId] }),
    // A person's answers without their plan (the key leads with it): their account's deletion
    // removes them (the foreign key's cascade), their data export lists them.
    index("plan_answers_user_idx").on(t.userId),
    check("plan_answers_answer_check", sql`${t.answer} in ('going', 'maybe', 'cant')`),
  ],
);

/** 'How was it?': one private answer per person and plan, never shown to the other couple. */
export const planFeedback = pgTable(
  "plan_feedback",
  {
    planId: uuid("plan_id")
      .notNull()
      .references(() => plans.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    coupleId: uuid("couple_id").references(() => couples.id, { onDelete: "cascade" }),
    answer: text("answer").notNull(),
    answeredAt: at("answered_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.planId, t.userId] }),
    // A person's 'How was it?' without the plan, as their answers (plan_answers_user_idx).
    index("plan_feedback_user_idx").on(t.userId),
    // 'Not for us' between two couples (discover), and 'You met on' (both said great).
    index("plan_feedback_couple_idx").on(t.coupleId, t.answer),
    check("plan_feedback_answer_check", sql`${t.answer} in ('great', 'fine', 'not_for_us', 'went_wrong')`),
  ],
);

/**
 * 'Share with a friend': each couple's own read-only link to a plan, so neither couple can replace
 * or stop the other's (the other couple is who a safety link is about). The SHA-256 of the
 * link's token only; the page shows the couple the sharer is meeting.
 */
export const planShares = pgTable(
  "plan_shares",
  {
    planId: uuid("plan_id")
      .notNull()
      .references(() => plans.id, { onDelete: "cascade" }),
    coupleId: uuid("couple_id")
      .notNull()
      .references(() => couples.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique("plan_shares_token_hash_key"),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.planId, t.coupleId] }),
    // A couple's links without their plan (the key leads with it): the couple's deletion removes them.
    index("plan_shares_couple_idx").on(t.coupleId),
  ],
);
