import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DELETE as unblockRoute, PUT as blockRoute } from "@/app/api/couples/[id]/block/route";
import { GET as blocksRoute } from "@/app/api/blocks/route";
import { getDb } from "@/db/client";
import { coupleBlocks, couples, invitations } from "@/db/schema";
import { BLOCK_LIST_PAGE_SIZE } from "@/lib/safety/rules";
import { cancelInvitation, partnerView, resendInvitation } from "@/lib/invitations/manage";
import { call, createUser } from "../support/api";
import { latestMail } from "../support/flows";
import { acceptWith, emailedToken, expire, invited, load, mailCount, partnerA, partnerEmail, sentEarlier } from "../support/invitations";
import { withCouple } from "../support/couples";
import { queryPlan, wholeScans } from "../support/query-plan";

const openInvitations = async (coupleId: string) => {
  const db = await getDb();
  return (await db.select().from(invitations).where(eq(invitations.coupleId, coupleId))).filter((row) => !row.revokedAt && !row.acceptedAt);
};

describe("the settings' Partner section", () => {
  it("offers partner A to invite, then shows the pending invitation", async () => {
    const inviter = await partnerA();
    const db = await getDb();
    expect(await partnerView(db, inviter.user.id)).toEqual({ kind: "none", canInvite: true });
    const { email } = await invited(inviter);
    expect(await partnerView(db, inviter.user.id)).toEqual({
      kind: "invited",
      invitation: {
        partnerEmail: email,
        partnerFirstName: "Thaddeus",
        partnerLastName: "Grant",
        expiresAt: expect.any(String),
        expired: false,
      },
    });
  });

  it("shows the partner by name, without their e-mail, to each of the two", async () => {
    const inviter = await partnerA();
    const partner = await createUser({ firstName: "Thaddeus", lastName: "Grant", occupation: "Chef" });
    const db = await getDb();
    await db.update(couples).set({ partner2Id: partner.id }).where(eq(couples.id, inviter.coupleId));
    const seenByA = await partnerView(db, inviter.user.id);
    expect(seenByA).toEqual({
      kind: "partner",
      partner: { firstName: "Thaddeus", lastName: "Grant", occupation: "Chef", avatarUrl: null },
    });
    expect(JSON.stringify(seenByA)).not.toContain(partner.email);
    expect(await partnerView(db, partner.id)).toMatchObject({ kind: "partner", partner: { firstName: "Marisol", lastName: "Okafor" } });
  });

  it("'Resend' e-mails a new link to the same person and the old links stop working", async () => {
    const inviter = await partnerA();
    const first = await invited(inviter);
    await sentEarlier(inviter.coupleId);
    const db = await getDb();
    const sent = await resendInvitation(db, inviter.user.id);
    expect(sent.invitation).toMatchObject({ partner_email: first.email, partner_first_name: "Thaddeus", partner_last_name: "Grant" });
    expect(sent.emailIds).toHaveLength(1);
    const fresh = await emailedToken(first.email);
    expect(fresh).not.toBe(first.token);
    expect((await load(first.token)).status).toBe(400);
    expect((await load(first.shareToken)).status).toBe(400);
    expect((await load(fresh)).status).toBe(200);
    expect(await openInvitations(inviter.coupleId)).toHaveLength(1);
    expect((await latestMail(first.email)).text).toContain("Hi Thaddeus,");
  });

  it("'Resend' sent again just after a send answers that invitation: no second e-mail, its links keep working", async () => {
    const inviter = await partnerA();
    const first = await invited(inviter);
    const db = await getDb();
    const again = await resendInvitation(db, inviter.user.id);
    expect(await mailCount(first.email)).toBe(1);
    expect((await load(first.token)).status).toBe(200);
    expect(again).toEqual({
      invitation: {
        partner_email: first.email,
        partner_first_name: "Thaddeus",
        partner_last_name: "Grant",
        expires_at: expect.any(String),
      },
      emailIds: [],
    });
    expect((await load(first.shareToken)).status).toBe(200);
    expect(await openInvitations(inviter.coupleId)).toHaveLength(1);
  });

  it("'Resend' pressed twice at once sends one e-mail whose link works, both answering the same invitation", async () => {
    const inviter = await partnerA();
    const first = await invited(inviter);
    await sentEarlier(inviter.coupleId);
    const db = await getDb();
    const [one, two] = await Promise.all([resendInvitation(db, inviter.user.id), resendInvitation(db, inviter.user.id)]);
    expect([...one.emailIds, ...two.emailIds]).toHaveLength(1);
    expect(one.invitation).toEqual(two.invitation);
    expect(await mailCount(first.email)).toBe(2);
    const fresh = await emailedToken(first.email);
    expect(fresh).not.toBe(first.token);
    expect((await load(fresh)).status).toBe(200);
    expect(await openInvitations(inviter.coupleId)).toHaveLength(1);
    // Sent again right after, in sequence: still that invitation, still one e-mail more.
    expect((await resendInvitation(db, inviter.user.id)).emailIds).toEqual([]);
    expect(await mailCount(first.email)).toBe(2);
    expect((await acceptWith(fresh)).status).toBe(200);
  });

  it("'Resend' renews an expired invitation", async () => {
    const inviter = await partnerA();
    const first = await invited(inviter);
    await expire(first.token);
    const db = await getDb();
    expect(await partnerView(db, inviter.user.id)).toMatchObject({ kind: "invited", invitation: { expired: true } });
    await resendInvitation(db, inviter.user.id);
    expect(await partnerView(db, inviter.user.id)).toMatchObject({ kind: "invited", invitation: { expired: false } });
  });

  it("'Cancel' ends every link of the invitation; a second cancel finds nothing", async () => {
    const inviter = await partnerA();
    const first = await invited(inviter);
    const db = await getDb();
    await cancelInvitation(db, inviter.user.id);
    expect(await openInvitations(inviter.coupleId)).toHaveLength(0);
    expect((await acceptWith(first.token)).status).toBe(400);
    expect(await partnerView(db, inviter.user.id)).toEqual({ kind: "none", canInvite: true });
    await expect(cancelInvitation(db, inviter.user.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(resendInvitation(db, inviter.user.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("touches only the caller's own couple's invitation", async () => {
    const mine = await partnerA("Mine");
    const theirs = await partnerA("Theirs");
    await invited(theirs, partnerEmail("theirs"));
    const db = await getDb();
    await expect(cancelInvitation(db, mine.user.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(resendInvitation(db, mine.user.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await openInvitations(theirs.coupleId)).toHaveLength(1);
  });

  it("refuses a person without a couple, and a full couple", async () => {
    const loner = await createUser();
    const db = await getDb();
    await expect(partnerView(db, loner.id)).rejects.toMatchObject({ code: "NO_COUPLE" });
    await expect(cancelInvitation(db, loner.id)).rejects.toMatchObject({ code: "NO_COUPLE" });
    const inviter = await partnerA();
    const partner = await createUser();
    await db.update(couples).set({ partner2Id: partner.id }).where(eq(couples.id, inviter.coupleId));
    await expect(resendInvitation(db, partner.id)).rejects.toMatchObject({ code: "COUPLE_FULL" });
  });
});

describe("the settings' Blocked couples section (GET /api/blocks, DELETE /api/couples/{id}/block)", () => {
  const blocks = (headers: Record<string, string>) => call(blocksRoute, "GET", "/api/blocks", { headers });
  const block = (id: string, method: "PUT" | "DELETE", headers: Record<string, string>) =>
    call(method === "PUT" ? blockRoute : unblockRoute, method, `/api/couples/${id}/block`, { headers, params: { id } });

  it("lists a blocked couple and 'Unblock' removes it, for the caller's couple only", async () => {
    const mine = await withCouple();
    const theirs = await withCouple({ coupleName: "Blocked Pair" });
    const bystander = await withCouple({ coupleName: "Bystanders" });
    expect((await block(theirs.coupleId, "PUT", mine.headers)).status).toBe(200);
    expect((await blocks(mine.headers)).json.data).toMatchObject([{ coupleId: theirs.coupleId, coupleName: "Blocked Pair" }]);
    // Another couple cannot lift the block.
    expect((await block(theirs.coupleId, "DELETE", bystander.headers)).status).toBe(200);
    expect((await blocks(mine.headers)).json.data).toHaveLength(1);
    expect((await block(theirs.coupleId, "DELETE", mine.headers)).status).toBe(200);
    expect((await blocks(mine.headers)).json.data).toEqual([]);
  });

  it("refuses a malformed id with 400", async () => {
    const mine = await withCouple();
    expect((await block("not-a-uuid", "DELETE", mine.headers)).status).toBe(400);
  });

  it("pages the list, latest first, each couple once (blocks made at one instant too), with a cursor only this couple may use", async () => {
    const mine = await withCouple();
    const other = await withCouple();
    const db = await getDb();
    const total = BLOCK_LIST_PAGE_SIZE * 2 + 3;
    const blocked: string[] = [];
    for (let i = 0; i < total; i++) {
      const user = await createUser();
      const [couple] = await db
        .insert(couples)
        .values({ partner1Id: user.id, coupleName: `Blocked ${i}`, isVisible: true })
        .returning({ id: couples.id });
      blocked.push(couple!.id);
    }
    // Three blocks to an instant: the pages part them by couple, never repeat nor skip one.
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 3) * 60_000);
    await db
      .insert(coupleBlocks)
      .values(blocked.map((id, i) => ({ blockerCoupleId: mine.coupleId, blockedCoupleId: id, createdAt: at(i) })));

    const pages: { coupleId: string; blockedAt: string }[][] = [];
    let query = "";
    for (;;) {
      const res = await call(blocksRoute, "GET", `/api/blocks${query}`, { headers: mine.headers });
      expect(res.status).toBe(200);
      pages.push(res.json.data);
      expect(res.json.pagination.limit).toBe(BLOCK_LIST_PAGE_SIZE);
      if (!res.json.pagination.hasMore) break;
      query = `?cursor=${encodeURIComponent(res.json.pagination.nextCursor)}`;
    }
    expect(pages.map((page) => page.length)).toEqual([BLOCK_LIST_PAGE_SIZE, BLOCK_LIST_PAGE_SIZE, 3]);
    const listed = pages.flat();
    expect(new Set(listed.map((row) => row.coupleId))).toEqual(new Set(blocked));
    const keys = listed.map((row) => `${row.blockedAt} ${row.coupleId}`);
    expect(keys).toEqual([...keys].sort().reverse());

    // Another couple's cursor, or a forged one, is a 400 with the list's words, never a 5xx.
    const theirs = await call(blocksRoute, "GET", `/api/blocks${query}`, { headers: other.headers });
    expect(theirs.status).toBe(400);
    expect(theirs.json.error.message).toMatch(/no longer available/);
    expect((await call(blocksRoute, "GET", "/api/blocks?cursor=nonsense", { headers: mine.headers })).status).toBe(400);

    // Each page is a range of couple_blocks_blocker_created_idx, never a read of all the couple's blocks.
    const planned = await queryPlan(
      sql`select blocked_couple_id from couple_blocks where blocker_couple_id = ${mine.coupleId}
        and (created_at, blocked_couple_id) < (${at(10).toISOString()}::timestamptz, ${blocked[10]}::uuid)
        order by created_at desc, blocked_couple_id desc limit ${BLOCK_LIST_PAGE_SIZE + 1}`,
    );
    expect(wholeScans(planned)).toEqual([]);
    expect(planned).toContain("couple_blocks_blocker_created_idx");
  });
});
