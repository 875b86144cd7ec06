import { describe, expect, it } from "vitest";
import { interestLists } from "@/lib/couples/rules";
import { coupleInterestSet } from "@/lib/discover/rules";
import { interestsVenn } from "@/lib/directory/rules";

describe("a couple's interests as couples are compared (one rule for the directory, the profile and discover)", () => {
  it("is each partner's list, or the couple's stored list when every partner's list is empty", () => {
    expect(interestLists([["travel"], ["cooking"]], ["legacy"])).toEqual([["travel"], ["cooking"]]);
    expect(interestLists([["travel"], []], ["legacy"])).toEqual([["travel"], []]);
    expect(interestLists([[], []], ["legacy"])).toEqual([["legacy"]]);
    expect(interestLists([[]], ["legacy"])).toEqual([["legacy"]]);
  });

  it("discover's interest set and the profile's Venn read the same union", () => {
    const cases: [string[][], string[]][] = [
      [[["travel", "hiking"], ["cooking"]], ["legacy"]],
      [
        [[], []],
        ["legacy", "travel"],
      ],
      [[["hiking"]], []],
    ];
    for (const [partners, stored] of cases) {
      const set = coupleInterestSet({ partners, coupleInterests: stored });
      const venn = interestsVenn(interestLists(partners, stored), [[]]);
      expect([...set].sort()).toEqual([...venn.onlyYours].sort());
    }
  });
});
