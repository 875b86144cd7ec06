import { describe, expect, it } from "vitest";
import { emptyPage, keysetPage } from "@/lib/pagination/page";

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ n: i + 1 }));
const cursorOf = (row: { n: number }) => `after-${row.n}`;

describe("keysetPage", () => {
  it("keeps `limit` rows and points after the last when the extra row says there is more", () => {
    expect(keysetPage(rows(4), 3, (row) => row.n * 10, cursorOf)).toEqual({
      data: [10, 20, 30],
      pagination: { limit: 3, hasMore: true, nextCursor: "after-3" },
    });
  });

  it("has no next cursor on the last page, full or not", () => {
    expect(keysetPage(rows(3), 3, (row) => row.n, cursorOf)).toEqual({
      data: [1, 2, 3],
      pagination: { limit: 3, hasMore: false, nextCursor: null },
    });
    expect(keysetPage(rows(0), 3, (row) => row.n, cursorOf)).toEqual(emptyPage(3));
  });

  it("makes the cursor of the page's last row only, never of the extra one", () => {
    const seen: number[] = [];
    keysetPage(
      rows(6),
      5,
      (row) => row,
      (row) => (seen.push(row.n), "c"),
    );
    expect(seen).toEqual([5]);
  });
});
