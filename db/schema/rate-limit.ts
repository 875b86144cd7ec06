import { index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/** Hits counted against a limit; kept in the database so limits hold across serverless instances. */
export const rateLimitHits = pgTable(
  "rate_limit_hits",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    bucket: text("bucket").notNull(),
    subject: text("subject").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("rate_limit_hits_lookup_idx").on(t.bucket, t.subject, t.createdAt)],
);
