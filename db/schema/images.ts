import { index, pgTable, text, uuid } from "drizzle-orm/pg-core";
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
