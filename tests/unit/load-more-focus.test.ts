import { afterEach, describe, expect, it, vi } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { focusAfter, LoadMore } from "@/components/ui/LoadMore";

/**
 * When the last page takes 'Load more' away, the focus it had moves to the first row that page
 * brought (components/ui/LoadMore.tsx), in stand-in elements: only focus the removal dropped.
 */

const element = (control: { focus: () => void } | null = null) => ({
  focus: vi.fn(),
  tabIndex: 0,
  nextElementSibling: null as unknown,
  querySelector: () => control,
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("focusAfter", () => {
  const rows = () => {
    const link = { focus: vi.fn() };
    const before = element();
    const brought = element(link);
    before.nextElementSibling = brought;
    const list = { ...element(), firstElementChild: before };
    return { link, before, list };
  };

  it("moves the focus the button's removal dropped to the first row the page brought", () => {
    const body = {};
    vi.stubGlobal("document", { body, activeElement: body });
    const { link, before, list } = rows();
    focusAfter(list as unknown as HTMLElement, before as unknown as Element);
    expect(link.focus).toHaveBeenCalledOnce();
  });

  it("leaves the focus where the user moved it while the page loaded", () => {
    const elsewhere = { focus: vi.fn() };
    vi.stubGlobal("document", { body: {}, activeElement: elsewhere });
    const { link, before, list } = rows();
    focusAfter(list as unknown as HTMLElement, before as unknown as Element);
    expect(link.focus).not.toHaveBeenCalled();
  });
});

describe("LoadMore's status", () => {
  const status = (busy: boolean) =>
    renderToStaticMarkup(
      createElement(LoadMore, {
        list: { cursor: "c40", busy, error: null, added: 20, loadMore: async () => {}, listElement: null },
      }),
    ).match(/<p[^>]*role="status"[^>]*>(.*?)<\/p>/)?.[1];

  it("empties while a page loads, so the next page's count is told though it reads the same as the last", () => {
    expect(status(false)).toBe("20 more shown");
    expect(status(true)).toBe("");
  });
});
