import { eq, or, type Column, type SQL } from "drizzle-orm";
import { couples } from "@/db/schema";

/** The couple rows the user (an id, or a user id column in a join) is a partner of, as A or B. */
export function partnerOf(user: string | Column): SQL {
  return or(eq(couples.partner1Id, user), eq(couples.partner2Id, user))!;
}
