import { describe, expect, it } from "vitest";
import { BUILT_IN_INTEREST_CATEGORIES, INTEREST_ROWS, groupByCategory } from "@/lib/interests/catalogue";
import { INTERESTS_MAX } from "@/lib/interests/rules";

describe("interest catalogue", () => {
  it("has the spec's fallback categories, in order", () => {
    expect(Object.keys(BUILT_IN_INTEREST_CATEGORIES)).toEqual([
      "Lifestyle",
      "Adventure",
      "Creative",
      "Innovation & Future",
      "Health & Wellness",
      "Professional Growth",
    ]);
  });

  it("holds every value the spec names, once each, and enough to reach the 25-pick maximum", () => {
    const values = INTEREST_ROWS.map((row) => row.value);
    expect(new Set(values).size).toBe(values.length);
    expect(values).toEqual(
      expect.arrayContaining([
        "travel",
        "food_dining",
        "wine_tasting",
        "home_entertaining",
        "outdoor_activities",
        "adventure_sports",
        "arts_culture",
        "music",
        "reading",
        "photography",
        "technology",
        "investing",
        "entrepreneurship",
        "fitness_wellness",
        "career_development",
      ]),
    );
    expect(values.length).toBeGreaterThan(INTERESTS_MAX);
  });

  it("gives every interest a label and a snake_case value", () => {
    for (const row of INTEREST_ROWS) {
      expect(row.value).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(row.label.trim()).not.toBe("");
    }
  });

  it("numbers rows in display order, category by category", () => {
    expect(INTEREST_ROWS.map((row) => row.sortOrder)).toEqual(INTEREST_ROWS.map((_, i) => i));
    expect(INTEREST_ROWS[0]).toEqual({ value: "travel", label: "Travel", category: "Lifestyle", sortOrder: 0 });
  });

  it("fits the directory's interest mask: one bit per interest, exact as a JavaScript number", () => {
    // interest_mask (migration 0011) gives each interest a bit of a bigint; 'most in common' counts
    // them, and the schema reads the column as a number (exact up to 2^53).
    expect(INTEREST_ROWS.length).toBeLessThanOrEqual(53);
  });

  it("groups keeping first-seen order of categories and items", () => {
    const grouped = groupByCategory([
      { value: "b", label: "B", category: "Two" },
      { value: "a", label: "A", category: "One" },
      { value: "c", label: "C", category: "Two" },
    ]);
    expect(Object.entries(grouped)).toEqual([
      [
        "Two",
        [
          { value: "b", label: "B" },
          { value: "c", label: "C" },
        ],
      ],
      ["One", [{ value: "a", label: "A" }]],
    ]);
  });
});
