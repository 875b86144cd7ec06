import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as byCategory } from "@/app/api/interests/by-category/route";
import { GET as list } from "@/app/api/interests/route";
import { getDb } from "@/db/client";
import { interests } from "@/db/schema";
import { BUILT_IN_INTEREST_CATEGORIES, INTEREST_ROWS } from "@/lib/interests/catalogue";
import { ensureInterestCatalogue } from "@/lib/interests/service";
import { call } from "../support/api";

const getList = () => call(list, "GET", "/api/interests");
const getByCategory = () => call(byCategory, "GET", "/api/interests/by-category");

// One database per file: the tests run in order, from an empty table to a seeded one.
describe("GET /api/interests and /api/interests/by-category", () => {
  it("answer the built-in catalogue while the table is empty, with public cache headers", async () => {
    const db = await getDb();
    await db.delete(interests);

    const listed = await getList();
    expect(listed.status).toBe(200);
    expect(listed.json).toEqual({
      success: true,
      data: INTEREST_ROWS.map(({ value, label, category }) => ({ value, label, category })),
      error: null,
    });
    expect(listed.headers.get("cache-control")).toMatch(/^public, max-age=\d+/);

    const grouped = await getByCategory();
    expect(grouped.status).toBe(200);
    expect(grouped.json).toEqual({ success: true, data: BUILT_IN_INTEREST_CATEGORIES, error: null });
    expect(Object.keys(grouped.json.data)).toEqual([
      "Lifestyle",
      "Adventure",
      "Creative",
      "Innovation & Future",
      "Health & Wellness",
      "Professional Growth",
    ]);
    expect(grouped.headers.get("cache-control")).toMatch(/^public, max-age=\d+/);
  });

  it("ensureInterestCatalogue writes every catalogue row, and a second run changes nothing", async () => {
    const db = await getDb();
    expect(await ensureInterestCatalogue(db)).toBe(INTEREST_ROWS.length);
    expect(await ensureInterestCatalogue(db)).toBe(INTEREST_ROWS.length);
    const rows = await db.select().from(interests).orderBy(interests.sortOrder);
    expect(rows).toEqual(INTEREST_ROWS);
  });

  it("answer what the table holds, in its sort order, once it has rows", async () => {
    const db = await getDb();
    await db.insert(interests).values({ value: "stargazing", label: "Stargazing", category: "Social", sortOrder: -1 });

    const listed = await getList();
    expect(listed.json.data[0]).toEqual({ value: "stargazing", label: "Stargazing", category: "Social" });
    expect(listed.json.data.slice(1).map((i: { value: string }) => i.value)).toEqual(INTEREST_ROWS.map((r) => r.value));

    const grouped = (await getByCategory()).json.data;
    expect(Object.keys(grouped)[0]).toBe("Social");
    expect(grouped.Social).toEqual([{ value: "stargazing", label: "Stargazing" }]);
    expect(grouped.Lifestyle).toEqual(BUILT_IN_INTEREST_CATEGORIES.Lifestyle);
  });

  it("ensureInterestCatalogue restores a changed label and keeps rows it does not know", async () => {
    const db = await getDb();
    await db.update(interests).set({ label: "Globetrotting" }).where(eq(interests.value, "travel"));
    await ensureInterestCatalogue(db);
    const listed = (await getList()).json.data as { value: string; label: string }[];
    expect(listed.find((i) => i.value === "travel")?.label).toBe("Travel");
    expect(listed.some((i) => i.value === "stargazing")).toBe(true);
  });
});
