/**
 * The interest catalogue: the spec's values, labels and categories (section 3), widened with
 * more interests in the same six categories so the 25-pick maximum can be reached. In display
 * order. Single source for the seed, the server's fallback and the client's fallback list, so
 * it stays pure data (no server imports) and can be bundled for the browser. A new interest also
 * needs its bit in the database's interest_mask (appended by a migration, see 0011): the
 * directory's 'most in common' counts with it.
 */
export const INTEREST_CATALOGUE = {
  Lifestyle: [
    { value: "travel", label: "Travel" },
    { value: "food_dining", label: "Food & Dining" },
    { value: "wine_tasting", label: "Wine Tasting" },
    { value: "home_entertaining", label: "Home Entertaining" },
    { value: "cooking", label: "Cooking" },
    { value: "board_games", label: "Board Games" },
    { value: "gardening", label: "Gardening" },
  ],
  Adventure: [
    { value: "outdoor_activities", label: "Outdoor Activities" },
    { value: "adventure_sports", label: "Adventure Sports" },
    { value: "hiking", label: "Hiking" },
    { value: "cycling", label: "Cycling" },
    { value: "sailing", label: "Sailing" },
    { value: "skiing", label: "Skiing" },
  ],
  Creative: [
    { value: "arts_culture", label: "Arts & Culture" },
    { value: "music", label: "Music" },
    { value: "reading", label: "Reading" },
    { value: "photography", label: "Photography" },
    { value: "live_music", label: "Live Music" },
    { value: "theatre", label: "Theatre" },
    { value: "film", label: "Film" },
    { value: "dance", label: "Dance" },
    { value: "writing", label: "Writing" },
  ],
  "Innovation & Future": [
    { value: "technology", label: "Technology" },
    { value: "investing", label: "Investing" },
    { value: "sustainability", label: "Sustainability" },
  ],
  "Health & Wellness": [
    { value: "fitness_wellness", label: "Fitness & Wellness" },
    { value: "yoga", label: "Yoga" },
    { value: "running", label: "Running" },
  ],
  "Professional Growth": [
    { value: "entrepreneurship", label: "Entrepreneurship" },
    { value: "career_development", label: "Career Development" },
    { value: "languages", label: "Languages" },
    { value: "volunteering", label: "Volunteering" },
  ],
} as const;

export type InterestCategory = keyof typeof INTEREST_CATALOGUE;
export type Interest = (typeof INTEREST_CATALOGUE)[InterestCategory][number]["value"];

export type InterestOption = { value: string; label: string };
export type InterestItem = InterestOption & { category: string };
/** The by-category answer: category name to its interests, categories in display order. */
export type InterestsByCategory = Record<string, InterestOption[]>;

/** The catalogue as table rows; sortOrder is the position across all categories. */
export const INTEREST_ROWS: readonly (InterestItem & { sortOrder: number })[] = Object.entries(INTEREST_CATALOGUE)
  .flatMap(([category, items]) => items.map((item) => ({ value: item.value, label: item.label, category })))
  .map((row, sortOrder) => ({ ...row, sortOrder }));

export const INTEREST_VALUES: readonly string[] = INTEREST_ROWS.map((row) => row.value);

/** Groups items by category, keeping the order in which categories and items first appear. */
export function groupByCategory(items: readonly InterestItem[]): InterestsByCategory {
  const groups: InterestsByCategory = {};
  for (const { value, label, category } of items) (groups[category] ??= []).push({ value, label });
  return groups;
}

/** What the API answers while the table is empty (and what the client shows if the call fails). */
export const BUILT_IN_INTEREST_CATEGORIES: Readonly<InterestsByCategory> = groupByCategory(INTEREST_ROWS);
