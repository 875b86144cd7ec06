import { integer, pgTable, text } from "drizzle-orm/pg-core";

export const interests = pgTable("interests", {
  value: text("value").primaryKey(),
  label: text("label").notNull(),
  category: text("category").notNull(),
  sortOrder: integer("sort_order").notNull().default(0),
});
