import { describe, expect, it } from "vitest";
import { DIRECTORY_MAP_MAX, DIRECTORY_PAGE_DEFAULT, DIRECTORY_PAGE_MAX } from "@/lib/directory/rules";
import { DIRECTORY_STATEMENTS, directoryShape, NAMED_PAGE_SIZES, type DirectoryShapeInput } from "@/lib/directory/shapes";

const FLAGS = [
  "viewerCouple",
  "centre",
  "search",
  "interests",
  "styles",
  "verified",
  "photoVerified",
  "distance",
  "after",
  "viewerInterests",
] as const;
/** Every page size a request may ask for (the API's 1 to DIRECTORY_PAGE_MAX, the map's). */
const LIMITS = [...Array.from({ length: DIRECTORY_PAGE_MAX }, (_, i) => i + 1), DIRECTORY_MAP_MAX];

/** A page statement reads a page's size; the count reads its own. */
const limitsOf = (statement: DirectoryShapeInput["statement"]) => (statement === "count" ? [null] : LIMITS);

/** Every input the directory can build a statement from: each statement, each flag on and off, each page size. */
function* everyInput(): Generator<DirectoryShapeInput> {
  for (const statement of DIRECTORY_STATEMENTS)
    for (const limit of limitsOf(statement))
      for (let bits = 0; bits < 2 ** FLAGS.length; bits++)
        yield {
          statement,
          limit,
          ...(Object.fromEntries(FLAGS.map((flag, i) => [flag, (bits & (2 ** i)) !== 0])) as Omit<
            DirectoryShapeInput,
            "statement" | "limit"
          >),
        };
}

describe("directory statement shapes", () => {
  const inputs = [...everyInput()];
  const names = new Set(inputs.map(directoryShape).filter((name) => name !== null));

  it("are bounded: at most 1,216 names over every input a request can make", () => {
    // The pages' 6 statements x 2 page sizes x (couple, centre, verified, photo verified, distance,
    // cursor), 'most in common's 3 also by whether the viewer has interests, and the count's one.
    expect(names.size).toBe(3 * 2 * 2 ** 6 + 3 * 2 * 2 ** 7 + 2 ** 6);
    expect(names.size).toBe(1216);
    expect(NAMED_PAGE_SIZES).toEqual([DIRECTORY_PAGE_DEFAULT, DIRECTORY_MAP_MAX]);
  });

  it("name only the app's own page sizes, and never a search, an interest or a style filter", () => {
    const planned = (input: DirectoryShapeInput) =>
      input.search || input.interests || input.styles || (input.limit !== null && !NAMED_PAGE_SIZES.includes(input.limit));
    expect(inputs.filter((input) => (directoryShape(input) === null) !== planned(input))).toEqual([]);
  });

  it("give every input that changes the SQL a name of its own", () => {
    const base: DirectoryShapeInput = {
      statement: "newest",
      viewerCouple: true,
      centre: true,
      search: false,
      interests: false,
      styles: false,
      verified: false,
      photoVerified: false,
      distance: false,
      after: false,
      viewerInterests: true,
      limit: DIRECTORY_PAGE_DEFAULT,
    };
    const changes: Partial<DirectoryShapeInput>[] = [
      { statement: "nearest-measured" },
      { viewerCouple: false },
      { centre: false },
      { verified: true },
      { photoVerified: true },
      { distance: true },
      { after: true },
      { limit: DIRECTORY_MAP_MAX },
    ];
    const named = [base, ...changes.map((change) => ({ ...base, ...change }))].map(directoryShape);
    expect(new Set(named).size).toBe(named.length);
    // Whether the viewer has interests changes 'most in common' only.
    expect(directoryShape({ ...base, viewerInterests: false })).toBe(directoryShape(base));
    expect(directoryShape({ ...base, statement: "common-ranked", viewerInterests: false })).not.toBe(
      directoryShape({ ...base, statement: "common-ranked" }),
    );
  });
});
