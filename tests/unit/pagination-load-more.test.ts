import { describe, expect, it } from "vitest";
import {
  GAP_PAGES,
  leftTheFirstPage,
  newRowsOf,
  readBelowFirst,
  readLoadedAgain,
  withGapRead,
  withNextPage,
  type Loaded,
} from "@/lib/pagination/load-more";
import { nextCursorOf, type KeysetPage } from "@/lib/pagination/page";

/** A server's keyset list of ids, newest activity first, three a page; the cursor names the last row. */
const PAGE = 3;
const pageOf = (list: string[], after: string | null): KeysetPage<string> => {
  const start = after === null ? 0 : list.indexOf(after) + 1;
  const data = list.slice(start, start + PAGE);
  const hasMore = start + PAGE < list.length;
  return { data, pagination: { limit: PAGE, hasMore, nextCursor: hasMore ? data.at(-1)! : null } };
};
const id = (row: string) => row;

/** What the list shows: the first page, then the loaded rows not on it (as useLoadMore shows them). */
const shownRows = (first: KeysetPage<string>, loaded: Loaded<string>) => [
  ...first.data,
  ...loaded.items.filter((row) => !first.data.includes(row)),
];

/** The hook's reading of the gap, against the server's list as it is now. */
async function readGap(list: string[], first: KeysetPage<string>, loaded: Loaded<string>) {
  const { read, next } = await readBelowFirst(loaded, nextCursorOf(first)!, async (cursor) => pageOf(list, cursor), id);
  return withGapRead(loaded, read, next, id);
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => `c${i + 1}`);

describe("'Load more' under a first page that changes (the live inbox)", () => {
  it("adds each page's rows once, at their first place", () => {
    const once = withNextPage(null, pageOf(ids(9), "c3"), id);
    expect(once).toEqual({ items: ["c4", "c5", "c6"], cursor: "c6" });
    const again = withNextPage(once, { data: ["c6", "c7"], pagination: { limit: PAGE, hasMore: false, nextCursor: null } }, id);
    expect(again).toEqual({ items: ["c4", "c5", "c6", "c7"], cursor: null });
  });

  it("counts as a page's new rows, for the status, only those the list did not show when the page came", () => {
    const loaded = withNextPage(null, pageOf(ids(9), "c3"), id);
    // The gap's read, while the next page was on its way, already brought c7.
    const latest = { ...loaded, items: [...loaded.items, "c7"] };
    const next = pageOf(ids(9), "c6");
    expect(next.data).toEqual(["c7", "c8", "c9"]);
    expect(newRowsOf(latest, next, ["c1", "c2", "c8"], id)).toBe(1);
    expect(newRowsOf(null, pageOf(ids(9), "c3"), ["c1", "c2", "c3"], id)).toBe(3);
  });

  it("shows the row a loaded one pushed down when it moved up onto the first page", async () => {
    let list = ids(9);
    const loaded = withNextPage(null, pageOf(list, "c3"), id);
    // New activity in c5 (loaded below): it moves to the top and pushes c3 off the first page.
    list = ["c5", ...list.filter((row) => row !== "c5")];
    const first = pageOf(list, null);
    expect(first.data).toEqual(["c5", "c1", "c2"]);
    expect(shownRows(first, loaded), "without reading again, c3 is in neither list").toEqual(["c5", "c1", "c2", "c4", "c6"]);
    expect(leftTheFirstPage(["c1", "c2", "c3"], first.data)).toBe(true);
    const after = await readGap(list, first, loaded);
    expect(shownRows(first, after)).toEqual(["c5", "c1", "c2", "c3", "c4", "c6"]);
    // The next 'Load more' goes on from where the loaded rows ended, and repeats none of them.
    expect(withNextPage(after, pageOf(list, after.cursor), id).items.filter((row) => !first.data.includes(row))).toEqual([
      "c3",
      "c4",
      "c6",
      "c7",
      "c8",
      "c9",
    ]);
  });

  it("drops a loaded row that is gone when the list ends within the rows read again", async () => {
    let list = ids(7);
    const loaded = withNextPage(null, pageOf(list, "c3"), id);
    // c2 and c5 are gone (a block): c4 moves up onto the first page.
    list = list.filter((row) => row !== "c2" && row !== "c5");
    const first = pageOf(list, null);
    const after = await readGap(list, first, loaded);
    expect(after).toEqual({ items: ["c6", "c7"], cursor: null });
    expect(shownRows(first, after)).toEqual(["c1", "c3", "c4", "c6", "c7"]);
  });

  it("drops a loaded row that is gone above the one where the rows read again meet the loaded ones", async () => {
    let list = ids(9);
    const loaded = withNextPage(null, pageOf(list, "c3"), id);
    // c2 and c4 are gone: c3 moves up onto the first page, c5 and c6 are read again.
    list = list.filter((row) => row !== "c2" && row !== "c4");
    const first = pageOf(list, null);
    const after = await readGap(list, first, loaded);
    expect(shownRows(first, after)).toEqual(["c1", "c3", "c5", "c6", "c7", "c8"]);
    expect(after.cursor).toBe("c8");
  });

  it("reads no more than a few pages to close a gap, then 'Load more' goes on after them, leaving no hole", async () => {
    let list = ids(30);
    const loaded = withNextPage(null, pageOf(list, "c3"), id);
    // Ten rows from far below move up at once: the gap is wider than the pages read.
    const risen = ids(30).slice(30 - 10);
    list = [...risen, ...list.filter((row) => !risen.includes(row))];
    const first = pageOf(list, null);
    const after = await readGap(list, first, loaded);
    expect(after).toEqual({ items: ["c24", "c25", "c26", "c27", "c28", "c29", "c30", "c1", "c2"], cursor: "c2" });
    expect(after.items).toHaveLength(GAP_PAGES * PAGE);
    const next = withNextPage(after, pageOf(list, after.cursor), id);
    expect(shownRows(first, next)).toEqual([...list.slice(0, 15)]);
    expect(leftTheFirstPage(["c1", "c2", "c3"], ["c2", "c1", "c3"]), "the same rows in another order").toBe(false);
  });
});

describe("'Load more' under an unchanged first page when the list's count changed (the hellos waiting)", () => {
  /** The hook's reading of the loaded rows again, against the server's list as it is now. */
  async function readAgain(list: string[], loaded: Loaded<string>) {
    const pages: string[] = [];
    const after = await readLoadedAgain(
      loaded,
      nextCursorOf(pageOf(list, null))!,
      async (cursor) => {
        pages.push(cursor);
        return pageOf(list, cursor);
      },
      id,
    );
    return { after, pages };
  }
  /** Two pages loaded below the first: c4 to c9. */
  const twoLoaded = (list: string[]) => withNextPage(withNextPage(null, pageOf(list, "c3"), id), pageOf(list, "c6"), id);

  it("drops a loaded row answered further down, reading only as far as the last loaded row", async () => {
    let list = ids(12);
    const loaded = twoLoaded(list);
    expect(loaded).toEqual({ items: ["c4", "c5", "c6", "c7", "c8", "c9"], cursor: "c9" });
    // c7 is accepted by the partner: the first page is as it was, so no gap's read would see it.
    list = list.filter((row) => row !== "c7");
    expect(leftTheFirstPage(["c1", "c2", "c3"], pageOf(list, null).data)).toBe(false);
    const { after, pages } = await readAgain(list, loaded);
    expect(pages).toEqual(["c3", "c6"]);
    expect(after).toEqual({ items: ["c4", "c5", "c6", "c8", "c9", "c10"], cursor: "c10" });
    // 'Load more' goes on after them: no repeat, no hole.
    expect(withNextPage(after, pageOf(list, after.cursor), id).items).toEqual(list.slice(3));
  });

  it("reads as many rows as were loaded and a page more when the last loaded row is gone too", async () => {
    let list = ids(20);
    const loaded = twoLoaded(list);
    list = list.filter((row) => row !== "c9");
    const { after, pages } = await readAgain(list, loaded);
    expect(pages).toHaveLength(3);
    expect(after).toEqual({ items: list.slice(3, 12), cursor: "c13" });
  });

  it("ends with the list, and reads nothing when nothing was loaded", async () => {
    let list = ids(9);
    const loaded = twoLoaded(list);
    list = list.filter((row) => row !== "c5" && row !== "c8");
    expect((await readAgain(list, loaded)).after).toEqual({ items: ["c4", "c6", "c7", "c9"], cursor: null });
    expect((await readAgain(list, { items: [], cursor: "c3" })).pages).toEqual([]);
  });
});
