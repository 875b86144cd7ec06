import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { users } from "./identity";

/**
 * A photo uploaded ahead of the save that uses it (`POST /api/uploads`): one request per photo
 * keeps every request under the platform's 4.5 MB body limit. Checked and resized on arrival and
 * stored under its final key; the save claims the row (deletes it) in its own transaction, so a
 * failed save leaves it waiting. Rows nobody claimed within a day are swept with their files
 * (lib/images/staged.ts).
 */
export const stagedPhotos = pgTable(
  "staged_photos",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerUserId: uuid("owner_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The image kind it was resized for (lib/images/rules IMAGE_SIZES): a save may use it only as that kind. */
    kind: text("kind").notNull(),
    /** The storage key (to remove the file) and the URL the storage serves it at. */
    key: text("key").notNull(),
    url: text("url").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("staged_photos_owner_idx").on(t.ownerUserId), index("staged_photos_created_idx").on(t.createdAt)],
);

/**
 * A stored file that nothing shows any more and that storage has not yet confirmed removed: the
 * removal failed (lib/images/store.ts deleteImages), or is recorded ahead in the transaction that
 * let it go (a deleted account's). The due work tries again until storage confirms
 * (lib/images/undeleted.ts), so a removed photo never stays stored for want of one answer.
 */
export const undeletedImages = pgTable(
  "undeleted_images",
  {
    key: text("key").primaryKey(),
    /** When the next try is due; each failed try waits longer (up to a day). */
    retryAt: timestamp("retry_at", { withTimezone: true }).notNull().defaultNow(),
    tries: integer("tries").notNull().default(0),
  },
  (t) => [index("undeleted_images_retry_idx").on(t.retryAt)],
);
