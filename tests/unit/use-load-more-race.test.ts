import { describe, expect, it, vi } from "vitest";
import type { KeysetPage } from "@/lib/pagination/page";

/**
 * useLoadMore (components/ui/useLoadMore.ts) in a small stand-in for React's hooks (state, refs,
 * effects after each render, effect events seeing the latest render): what the live feed's reads
 * of the first page do to the rows loaded below it (the hellos waiting), and their races with 'Load more'.
 */

const hooks = vi.hoisted(() => {
  let slots: unknown[] = [];
  let index = 0;
  let effects: (() => void)[] = [];
  let dirty = false;
  return {
    reset() {
      slots = [];
    },
    begin() {
      index = 0;
      effects = [];
      dirty = false;
    },
    end() {
      for (const effect of effects) effect();
    },
    get dirty() {
      return dirty;
    },
    react: {
      useState<S>(initial: S | (() => S)) {
        const at = index++;
        if (!(at in slots)) slots[at] = typeof initial === "function" ? (initial as () => S)() : initial;
        const set = (value: S | ((latest: S) => S)) => {
          slots[at] = typeof value === "function" ? (value as (latest: S) => S)(slots[at] as S) : value;
          dirty = true;
        };
        return [slots[at] as S, set] as const;
      },
      useRef<T>(initial: T) {
        const at = index++;
        if (!(at in slots)) slots[at] = { current: initial };
        return slots[at] as { current: T };
      },
      useEffect(effect: () => void, deps?: unknown[]) {
        const at = index++;
        const before = slots[at] as unknown[] | undefined;
        if (!before || !deps || deps.some((dep, i) => !Object.is(dep, before[i]))) {
          slots[at] = deps;
          effects.push(effect);
        }
      },
      useEffectEvent<A extends unknown[]>(event: (...args: A) => void) {
        const at = index++;
        const holder = (slots[at] ??= { event }) as { event: (...args: A) => void };
        holder.event = event;
        return (...args: A) => holder.event(...args);
      },
    },
  };
});
vi.mock("react", () => hooks.react);

/** The live feed of the first page (lib/live/client/use-live.ts): `read()` is one of its reads answering. */
const feed = vi.hoisted(() => {
  const listeners = new Set<() => void>();
  return {
    listeners,
    read() {
      for (const listener of listeners) listener();
    },
  };
});
vi.mock("@/lib/live/client/use-live", () => ({
  onLiveRead(_key: string, listener: () => void) {
    feed.listeners.add(listener);
    return () => feed.listeners.delete(listener);
  },
}));

// Called as a plain function inside the stand-in above, not by React: hence not named as a hook here.
const { useLoadMore: loadMoreOf } = await import("@/components/ui/useLoadMore");

/**
 * The server's list of hellos waiting, newest first, three a page; the cursor names the last row
 * (rows after it sort after it). A row with a star is the same hello, accepted by one partner.
 */
const PAGE = 3;
function server(rows: string[]) {
  const pageAfter = (after: string | null): KeysetPage<string> => {
    const rest = after === null ? rows : rows.filter((row) => row > after);
    const data = rest.slice(0, PAGE);
    const hasMore = rest.length > PAGE;
    return { data, pagination: { limit: PAGE, hasMore, nextCursor: hasMore ? data.at(-1)! : null } };
  };
  return { rows, pageAfter };
}

/** A load whose answers the test lets go one at a time, each read from the server's list when asked. */
function heldLoad(list: ReturnType<typeof server>) {
  const waiting: (() => void)[] = [];
  const load = vi.fn(
    (cursor: string) =>
      new Promise<KeysetPage<string>>((resolve) => {
        const page = list.pageAfter(cursor);
        waiting.push(() => resolve(page));
      }),
  );
  /** Lets the `at`th answer still waiting go (the oldest by default). */
  const release = (at = 0) => waiting.splice(at, 1)[0]?.();
  return { load, release };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

/** The list's hook, rendered (again, until its state settles) with the first page as the server has it now. */
function mounted(list: ReturnType<typeof server>, load: (cursor: string) => Promise<KeysetPage<string>>) {
  hooks.reset();
  feed.listeners.clear();
  let shown: ReturnType<typeof loadMoreOf<string>> | undefined;
  const render = () => {
    do {
      hooks.begin();
      const first = list.pageAfter(null);
      shown = loadMoreOf({
        firstCursor: first.pagination.nextCursor,
        firstIds: first.data,
        load,
        idOf: (row: string) => row.replace("*", ""),
        failed: "Could not load more requests",
        liveKey: "messages:requests",
      });
      hooks.end();
    } while (hooks.dirty);
    return shown;
  };
  render();
  return render;
}

describe("useLoadMore under a live first page (the hellos waiting)", () => {
  it("reads the loaded rows again at each read of the live feed: a partner's acceptance further down shows, the first page and count unchanged", async () => {
    const list = server(["h1", "h2", "h3", "h4", "h5", "h6", "h7"]);
    const { load, release } = heldLoad(list);
    const render = mounted(list, load);
    const asked = render().loadMore();
    release();
    await asked;
    expect(render().more).toEqual(["h4", "h5", "h6"]);
    // One partner of h5's couple accepts in another tab; the live feed reads the list again.
    list.rows[list.rows.indexOf("h5")] = "h5*";
    feed.read();
    render();
    release();
    await flush();
    expect(render().more).toEqual(["h4", "h5*", "h6"]);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("reads a page again when the feed read the list while it was being read: a hello withdrawn meanwhile is not shown", async () => {
    const list = server(["h1", "h2", "h3", "h4", "h5", "h6", "h7"]);
    const { load, release } = heldLoad(list);
    const render = mounted(list, load);
    let shown = render();
    const asked = shown.loadMore();
    render();
    // The page is read (h4, h5, h6); before it comes, h5's couple withdraws their hello.
    await flush();
    list.rows.splice(list.rows.indexOf("h5"), 1);
    feed.read();
    render();
    release();
    await asked;
    render();
    // Whatever the hook read again comes from the list as it is now.
    for (let rounds = 0; rounds < 5; rounds++) {
      release();
      await flush();
      shown = render();
    }
    expect(shown.more).toEqual(["h4", "h6", "h7"]);
  });

  it("reads nothing again when the feed read nothing while a page was read", async () => {
    const list = server(["h1", "h2", "h3", "h4", "h5", "h6", "h7"]);
    const { load, release } = heldLoad(list);
    const render = mounted(list, load);
    const asked = render().loadMore();
    release();
    await asked;
    const shown = render();
    await flush();
    expect(load).toHaveBeenCalledOnce();
    expect(shown.more).toEqual(["h4", "h5", "h6"]);
  });

  it("keeps a page loaded while the rows were being read again for the feed's read", async () => {
    const list = server(["h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "h9"]);
    const { load, release } = heldLoad(list);
    const render = mounted(list, load);
    let asked = render().loadMore();
    release();
    await asked;
    expect(render().more).toEqual(["h4", "h5", "h6"]);
    // h5's couple withdraws: the feed reads the list and the loaded rows are read again (held);
    // meanwhile the user asks for the next page, which comes first.
    list.rows.splice(list.rows.indexOf("h5"), 1);
    feed.read();
    asked = render().loadMore();
    release(1);
    await asked;
    expect(render().more).toEqual(["h4", "h5", "h6", "h7", "h8", "h9"]);
    release(0);
    await flush();
    const shown = render();
    expect(shown.more).toEqual(["h4", "h6", "h7", "h8", "h9"]);
    expect(shown.cursor).toBeNull();
  });
});

describe("useLoadMore's reads of the loaded rows, the live feed reading often", () => {
  it("reads the loaded rows once at a time: the feed's reads while one is under way ask for one more after it, not one each", async () => {
    const list = server(["h01", "h02", "h03", "h04", "h05", "h06", "h07", "h08", "h09", "h10", "h11", "h12"]);
    const { load, release } = heldLoad(list);
    const render = mounted(list, load);
    for (const _ of [1, 2, 3]) {
      const asked = render().loadMore();
      release();
      await asked;
    }
    expect(render().more).toHaveLength(9);
    load.mockClear();
    // A lively feed: five reads of the list while the loaded rows are read again (a page at a time).
    for (const _ of [1, 2, 3, 4, 5]) {
      feed.read();
      render();
      await flush();
    }
    expect(load).toHaveBeenCalledOnce();
    // h09 leaves meanwhile; the read under way ends (three pages), and one more follows for the reads it missed.
    list.rows.splice(list.rows.indexOf("h09"), 1);
    for (let rounds = 0; rounds < 10; rounds++) {
      release();
      await flush();
      render();
    }
    expect(load).toHaveBeenCalledTimes(6);
    expect(render().more).toEqual(["h04", "h05", "h06", "h07", "h08", "h10", "h11", "h12"]);
  });

  it("reads the rows again once more when a page 'Load more' asked for before a live read comes while the rows are being read", async () => {
    const list = server(["h01", "h02", "h03", "h04", "h05", "h06", "h07", "h08", "h09", "h10", "h11"]);
    const { load, release } = heldLoad(list);
    const render = mounted(list, load);
    let asked = render().loadMore();
    release();
    await asked;
    // The next page is asked for (h07, h08, h09); the feed reads the list, and the loaded rows are
    // read again (held); h08's couple withdraws; the page comes first, holding h08 as it was.
    asked = render().loadMore();
    await flush();
    feed.read();
    render();
    await flush();
    list.rows.splice(list.rows.indexOf("h08"), 1);
    release(0);
    await asked;
    render();
    for (let rounds = 0; rounds < 10; rounds++) {
      release();
      await flush();
      render();
    }
    expect(render().more).toEqual(["h04", "h05", "h06", "h07", "h09", "h10"]);
  });
});
