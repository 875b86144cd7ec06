import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { verifyEmail } from "@/lib/auth/email-verification";
import { couplePartners, decidingPartners, partnersByCouple, partnersIn } from "@/lib/membership/partner";
import { joinAsPartnerB, withCouple } from "../support/couples";
import { linkInLatestMail } from "../support/flows";
import { acceptWith, invited, partnerA, partnerEmail } from "../support/invitations";

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

describe("decidingPartners", () => {
  it("leaves out a partner 2 of the shareable link until they prove the address, and the account a new link puts in their place too", async () => {
    const inviter = await partnerA();
    const db = await getDb();
    const first = (await acceptWith((await invited(inviter)).shareToken)).json.user.id as string;
    expect(await couplePartners(db, inviter.coupleId)).toEqual([inviter.user.id, first]);
    expect(await decidingPartners(db, inviter.coupleId)).toEqual([inviter.user.id]);

    const right = await invited(inviter, partnerEmail("right"));
    const replaced = (await acceptWith(right.shareToken)).json.user.id as string;
    expect(replaced).not.toBe(first);
    expect(await couplePartners(db, inviter.coupleId)).toEqual([inviter.user.id, replaced]);
    expect(await decidingPartners(db, inviter.coupleId)).toEqual([inviter.user.id]);

    const token = (await linkInLatestMail(right.email)).searchParams.get("token")!;
    await verifyEmail(db, { token, email: right.email, password: "Mailbox#Owner7" });
    expect(await decidingPartners(db, inviter.coupleId)).toEqual([inviter.user.id, replaced]);
    expect(await decidingPartners(db, randomUUID())).toEqual([]);
  });

  it("counts a partner B who joined with the e-mailed link at once", async () => {
    const inviter = await partnerA();
    const joined = (await acceptWith((await invited(inviter)).token)).json.user.id as string;
    expect(await decidingPartners(await getDb(), inviter.coupleId)).toEqual([inviter.user.id, joined]);
  });
});
