import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as discoverRoute } from "@/app/api/discover/route";
import { getDb } from "@/db/client";
import { couples, users } from "@/db/schema";
import { call } from "../support/api";
import { bulkCouples } from "../support/bulk-couples";
import { forumCouple, type Headers } from "../support/forum";

// A file of its own: the couples made here in bulk would count as changed since any other test's stored list.
const discover = (h: Headers) => call(discoverRoute, "GET", "/api/discover", { headers: h });
const suggestedIds = (res: { json: { data: { coupleId: string }[] } }) => res.json.data.map((card) => card.coupleId);

describe("discover's candidates", () => {
  it("searches the couples with the most in common, not the lowest ids, among more sharing an interest than it scores", async () => {
    const mine = ["cycling", "yoga", "photography", "languages"];
    const us = await forumCouple();
    const db = await getDb();
    await db.update(users).set({ interests: mine }).where(eq(users.id, us.a.userId));
    await db.update(couples).set({ interests: mine, coupleTypes: [] }).where(eq(couples.id, us.coupleId));
    // 200 couples sharing one interest, with the lowest ids; 5 sharing all four, with the highest.
    await bulkCouples("0000000", 200, ["cycling"]);
    const best = await bulkCouples("fffffff", 5, mine);
    const res = await discover(us.a.headers);
    expect(res.status).toBe(200);
    expect(suggestedIds(res).slice(0, 5).sort()).toEqual(best);
  });

  it("searches on the interests it scores: the partners', not the couple's stored list they replaced", async () => {
    const stored = ["gardening", "film", "dance", "running"];
    const us = await forumCouple();
    const db = await getDb();
    await db
      .update(users)
      .set({ interests: ["board_games"] })
      .where(eq(users.id, us.a.userId));
    await db.update(couples).set({ interests: stored, coupleTypes: [] }).where(eq(couples.id, us.coupleId));
    // More couples sharing the stored list than the search hands the scorer, all of them before the one sharing a partner's interest.
    await bulkCouples("2222222", 300, stored);
    const [sharesOurs] = await bulkCouples("1111111", 1, ["board_games"]);
    const res = await discover(us.a.headers);
    expect(res.status).toBe(200);
    expect(suggestedIds(res)).toEqual([sharesOurs]);
  });
});
