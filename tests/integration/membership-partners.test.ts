import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { membersOf, partnersOf } from "@/lib/membership/partner";
import { joinAsPartnerB, withCouple } from "../support/couples";

describe("partnersOf", () => {
  it("answers each couple's partners in one list, partner A alone until B joins, and nothing for a couple that is not there", async () => {
    const pair = await withCouple();
    const b = await joinAsPartnerB(pair.coupleId);
    const single = await withCouple();
    const missing = randomUUID();

    const partners = await partnersOf(await getDb(), [pair.coupleId, single.coupleId, missing]);
    expect(partners.get(pair.coupleId)).toEqual([pair.user.id, b.user.id]);
    expect(partners.get(single.coupleId)).toEqual([single.user.id]);
    expect(partners.has(missing)).toBe(false);
    expect(membersOf(partners, [single.coupleId, missing, pair.coupleId])).toEqual([single.user.id, pair.user.id, b.user.id]);
  });

  it("reads nothing for no couples", async () => {
    expect((await partnersOf(await getDb(), [])).size).toBe(0);
  });
});
