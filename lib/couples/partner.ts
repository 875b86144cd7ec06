import { eq, or, type Column, type SQL } from "drizzle-orm";
import { couples } from "@/db/schema";

/** The couple rows the user (an id, a user id column in a join, or a placeholder) is a partner of, as A or B. */
export function partnerOf(user: string | Column | SQL): SQL {
  return or(eq(couples.partner1Id, user), eq(couples.partner2Id, user))!;
}
