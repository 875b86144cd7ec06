import { bigint, index, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { users } from "./identity";

/**
 * One row per person per change they must see: the database is the source of every live event, so
 * a stream resumed with `Last-Event-ID` reads exactly what it missed. `seq` increases strictly per
 * person (allocated from live_sequences under its row lock, so it also commits in order). Rows
 * name what changed, not what it said: the stream reads the current rows when it sends, so an
 * erased message is sent erased and a person who lost access is sent nothing.
 */
export const liveEvents = pgTable(
  "live_events",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    seq: bigint("seq", { mode: "number" }).notNull(),
    /**
     * What changed: a kind a feature registers (lib/live/kinds.ts, listed in lib/registry/live.ts).
     * Text, not an enum: the registry is the one list of kinds, so a new kind is its file and one
     * line there, with no migration; a kind no longer registered is skipped when sent.
     */
    kind: text("kind").notNull(),
    /** The row that changed (a message, a connection request, a notification; for `read`, the reader). */
    subjectId: uuid("subject_id"),
    /** What else its kind needs to name (ids, as `{ conversationId }`): features keep no column here. */
    payload: jsonb("payload").$type<Record<string, string>>(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.seq] }), index("live_events_created_idx").on(t.createdAt)],
);

/** Each person's last allocated live event `seq`; its row lock orders one person's events. */
export const liveSequences = pgTable("live_sequences", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  lastSeq: bigint("last_seq", { mode: "number" }).notNull().default(0),
});
