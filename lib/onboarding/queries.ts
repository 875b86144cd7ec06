import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, users } from "@/db/schema";
import { isProfileComplete } from "@/lib/auth/users";
import { userNotFound } from "@/lib/errors";
import type { InterestsByCategory } from "@/lib/interests/catalogue";
import { interestsByCategory } from "@/lib/interests/service";
import { initialStep, roleOf, type OnboardingRole, type OnboardingStep } from "./router";
import { partnerOf } from "@/lib/membership/partner";
import { selfColumns } from "@/lib/users/projections";

/** What step 1 saved before, to prefill the form when no draft is newer. */
export type SavedStep1 = {
  occupation: string;
  interests: string[];
  avatarUrl: string | null;
  location: { location: string; placeId: string } | null;
};

/** Plain data for the onboarding screens: who is asking, where they start, what they saved. */
export type OnboardingState = {
  userId: string;
  role: OnboardingRole;
  step: OnboardingStep;
  saved: SavedStep1;
  interestCategories: InterestsByCategory;
};

export async function loadOnboardingState(db: Db, userId: string): Promise<OnboardingState> {
  const [row] = await db
    .select({
      ...selfColumns(users),
      partner1Id: couples.partner1Id,
      partner2Id: couples.partner2Id,
      coupleName: couples.coupleName,
      coupleLocation: couples.location,
      couplePlaceId: couples.placeId,
    })
    .from(users)
    .leftJoin(couples, partnerOf(users.id))
    .where(eq(users.id, userId));
  if (!row) throw userNotFound();

  const role = roleOf(userId, row.partner1Id ? { partner1Id: row.partner1Id, partner2Id: row.partner2Id } : null);
  const location = row.location && row.placeId ? { location: row.location, placeId: row.placeId } : null;
  const step1Saved = Boolean(row.occupation && row.avatarUrl && location && row.interests.length > 0);
  // Partner B joins a couple that has a place: offered as theirs until they pick another.
  const couplePlace =
    role === "partner_b" && row.coupleLocation && row.couplePlaceId ? { location: row.coupleLocation, placeId: row.couplePlaceId } : null;
  return {
    userId,
    role,
    step: initialStep({ role, profileComplete: isProfileComplete(row), step1Saved }),
    saved: { occupation: row.occupation ?? "", interests: row.interests, avatarUrl: row.avatarUrl, location: location ?? couplePlace },
    interestCategories: await interestsByCategory(db),
  };
}
