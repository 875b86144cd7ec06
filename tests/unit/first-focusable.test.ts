import { afterEach, describe, expect, it, vi } from "vitest";
import { focusField } from "@/components/forms/useZodForm";
import { focusAfter } from "@/components/ui/LoadMore";
import { FOCUSABLE_CONTROLS, firstFocusable, rowInPlaceOf } from "@/components/ui/focusable";

/**
 * 'The first control a keyboard user can reach in this' is one rule (components/ui/focusable.ts):
 * 'Load more's row after the last page and a refused onboarding field both ask it, in stand-in elements.
 */

/** A stand-in element that records what it was asked for and answers `control`. */
const container = (control: { focus: () => void } | null) => {
  const asked: string[] = [];
  return {
    asked,
    focus: vi.fn(),
    tabIndex: 0,
    nextElementSibling: null,
    contains: () => false,
    querySelector: (selector: string) => (asked.push(selector), control),
  };
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the first focusable control", () => {
  it("takes links, enabled buttons and fields, a disclosure's summary and what a tab index puts in the order", () => {
    for (const part of [
      "a[href]",
      "button:not(:disabled)",
      "input:not([type=hidden]):not(:disabled)",
      "select:not(:disabled)",
      "textarea:not(:disabled)",
      "summary",
    ])
      expect(FOCUSABLE_CONTROLS).toContain(part);
    expect(FOCUSABLE_CONTROLS).toContain('[tabindex]:not([tabindex="-1"])');
    const row = container({ focus: vi.fn() });
    expect(firstFocusable(row as unknown as Element)).not.toBeNull();
    expect(row.asked).toEqual([FOCUSABLE_CONTROLS]);
  });

  it("is what 'Load more' and a refused onboarding field both look for", () => {
    const body = {};
    vi.stubGlobal("document", { body, activeElement: body, querySelector: () => null });
    const brought = container({ focus: vi.fn() });
    const list = { ...container(null), firstElementChild: brought };
    focusAfter(list as unknown as HTMLElement, null);
    expect(brought.asked).toEqual([FOCUSABLE_CONTROLS]);

    vi.stubGlobal("CSS", { escape: (value: string) => value });
    vi.stubGlobal("requestAnimationFrame", (run: () => void) => run());
    // A field none of whose controls is marked refused yet: its first control takes the focus.
    const control = { focus: vi.fn() };
    const wrapper = container(control);
    const field = {
      ...wrapper,
      querySelector: (selector: string) => (selector === '[aria-invalid="true"]' ? null : wrapper.querySelector(selector)),
    };
    const form = { querySelector: () => field };
    focusField(form as unknown as HTMLFormElement, "interests");
    expect(wrapper.asked).toEqual([FOCUSABLE_CONTROLS]);
    expect(control.focus).toHaveBeenCalledOnce();
  });
});

describe("the row that takes the focus when the focused row leaves a list", () => {
  it("is the next row still shown, else the one before, else the list's first row now, else none", () => {
    const before = ["r1", "r2", "r3", "r4", "r5"];
    expect(rowInPlaceOf(before, ["r1", "r2", "r4", "r5"], "r3")).toBe("r4");
    // The next one left too (two answered at once in another tab): the one after it.
    expect(rowInPlaceOf(before, ["r1", "r2", "r5"], "r3")).toBe("r5");
    // The last row: the one before it still shown.
    expect(rowInPlaceOf(before, ["r1", "r2", "r3"], "r5")).toBe("r3");
    expect(rowInPlaceOf(before, ["r1", "r2"], "r5")).toBe("r2");
    // Every row it was among is gone, others came: the first shown now.
    expect(rowInPlaceOf(["r1", "r2"], ["r7", "r8"], "r1")).toBe("r7");
    // None left: the caller's words or heading.
    expect(rowInPlaceOf(["r1"], [], "r1")).toBeNull();
  });
});
