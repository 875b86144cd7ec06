import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as mentions } from "@/app/api/forum/mentions/route";
import { getDb } from "@/db/client";
import { couples } from "@/db/schema";
import { call } from "../support/api";
import { withCouple, type Headers } from "../support/couples";

const search = (q: string, headers: Headers) =>
  call(mentions, "GET", `/api/forum/mentions?q=${encodeURIComponent(q)}`, { headers: { cookie: headers.cookie! } });

describe("GET /api/forum/mentions", () => {
  it("offers discoverable couples whose name contains the query, never the caller's own couple", async () => {
    const tag = `Zq${Date.now().toString(36)}`;
    const mine = await withCouple({ couple_name: `${tag}ara & Mo` });
    const other = await withCouple({ couple_name: `Lia & ${tag}eno` });
    const hidden = await withCouple({ couple_name: `${tag}ulu & Ana` });
    const db = await getDb();
    await db.update(couples).set({ isVisible: false }).where(eq(couples.id, hidden.coupleId));

    const res = await search(tag, mine.headers);
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual([{ coupleId: other.coupleId, name: `Lia & ${tag}eno`, imageUrl: null }]);
  });

  it("treats LIKE wildcards as letters", async () => {
    const { headers } = await withCouple();
    const res = await search("%%", headers);
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual([]);
  });

  it("refuses a query shorter than two letters with 400 and a signed-out call with 401", async () => {
    const { headers } = await withCouple();
    expect((await search("a", headers)).status).toBe(400);
    expect((await call(mentions, "GET", "/api/forum/mentions?q=ab")).status).toBe(401);
  });
});
