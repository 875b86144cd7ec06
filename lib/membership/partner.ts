import { eq, or, type Column, type SQL } from "drizzle-orm";
import { couples } from "@/db/schema";

/**
 * Which couple a person is a partner of, as SQL: a fact about couples that the floors below the
 * couple's own area (auth, images, locations) need, so it lives below them all.
 */

/** The couple rows the user (an id, a user id column in a join, or a placeholder) is a partner of, as A or B. */
export function partnerOf(user: string | Column | SQL): SQL {
  return or(eq(couples.partner1Id, user), eq(couples.partner2Id, user))!;
}
