import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { couplePartners, partnersByCouple, partnersIn } from "@/lib/membership/partner";
import { joinAsPartnerB, withCouple } from "../support/couples";

describe("partnersByCouple", () => {
  it("answers each couple's partners in one list, partner A alone until B joins, and nothing for a couple that is not there", async () => {
    const pair = await withCouple();
    const b = await joinAsPartnerB(pair.coupleId);
    const single = await withCouple();
    const missing = randomUUID();

    const partners = await partnersByCouple(await getDb(), [pair.coupleId, single.coupleId, missing]);
    expect(partners.get(pair.coupleId)).toEqual([pair.user.id, b.user.id]);
    expect(partners.get(single.coupleId)).toEqual([single.user.id]);
    expect(partners.has(missing)).toBe(false);
    expect(partnersIn(partners, [single.coupleId, missing, pair.coupleId])).toEqual([single.user.id, pair.user.id, b.user.id]);
    expect(await couplePartners(await getDb(), pair.coupleId)).toEqual([pair.user.id, b.user.id]);
    expect(await couplePartners(await getDb(), missing)).toEqual([]);
  });

  it("answers no couples for none", async () => {
    expect((await partnersByCouple(await getDb(), [])).size).toBe(0);
  });
});
