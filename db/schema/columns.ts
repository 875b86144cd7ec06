import { timestamp } from "drizzle-orm/pg-core";

/** The timestamps every table shares; not tables themselves, so index.ts does not re-export them. */
export const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());
