import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { couples } from "@/db/schema";
import { completeStep1 } from "@/lib/onboarding/service";
import { INTEREST_VALUES } from "@/lib/interests/catalogue";
import { failingDb } from "../support/failing-db";
import { createUser } from "../support/api";
import { LISBON, jpeg, signedIn, postStep1 } from "../support/onboarding";

describe("partner B's step 1", () => {
  /** A couple whose partner A has (or has not) completed their part, and partner B signed in. */
  async function coupleWithPartnerB(partnerAVerified: boolean) {
    const a = await createUser();
    const b = await signedIn();
    const db = await getDb();
    const [couple] = await db
      .insert(couples)
      .values({ partner1Id: a.id, partner2Id: b.user.id, coupleName: "Ada & Bea", partnerAVerified, status: "active", isVisible: true })
      .returning({ id: couples.id });
    return { ...b, coupleId: couple!.id };
  }

  const flags = async (coupleId: string) => {
    const db = await getDb();
    const [row] = await db
      .select({ partnerAVerified: couples.partnerAVerified, partnerBVerified: couples.partnerBVerified, isVerified: couples.isVerified })
      .from(couples)
      .where(eq(couples.id, coupleId));
    return row;
  };

  it("verifies partner B and, with partner A verified, the couple (the verified badge)", async () => {
    const { headers, coupleId } = await coupleWithPartnerB(true);
    const res = await postStep1(headers);
    expect(res.status).toBe(200);
    expect(res.json.data.isPartnerB).toBe(true);
    expect(await flags(coupleId)).toEqual({ partnerAVerified: true, partnerBVerified: true, isVerified: true });
  });

  it("verifies partner B but not the couple while partner A's part is not done", async () => {
    const { headers, coupleId } = await coupleWithPartnerB(false);
    expect((await postStep1(headers)).status).toBe(200);
    expect(await flags(coupleId)).toEqual({ partnerAVerified: false, partnerBVerified: true, isVerified: false });
  });

  it("leaves partner B unverified when the transaction fails", async () => {
    const { user, coupleId } = await coupleWithPartnerB(true);
    const input = { occupation: "Engineer", locationName: "Lisbon", locationPlaceId: LISBON, interests: INTEREST_VALUES.slice(0, 5) };
    await expect(completeStep1(await failingDb(), user.id, input, { userImage: await jpeg() })).rejects.toThrow();
    expect(await flags(coupleId)).toEqual({ partnerAVerified: true, partnerBVerified: false, isVerified: false });
  });
});
