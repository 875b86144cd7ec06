import { describe, expect, it, vi } from "vitest";
import { escapeScope, NO_TIP, onReactionsLayer, tipEscape, tipShowing, withTip } from "@/components/reactions/tooltip";

/**
 * The who-reacted tooltip's Escape (WCAG 1.4.13, components/reactions/Reactions.tsx): the pointer
 * and the keyboard's focus each show one, and Escape dismisses what either shows.
 */
describe("the reactions' tooltip", () => {
  it("is dismissed by Escape while focused, after the pointer passed over the emoji and left", () => {
    let tip = withTip(NO_TIP, { focus: "heart" });
    tip = withTip(tip, { point: "heart" });
    tip = withTip(tip, { point: null });
    expect(tipShowing(tip)).toBe(true);
    tip = withTip(tip, "escape");
    expect(tipShowing(tip)).toBe(false);
    expect(tip.dismissed).toEqual(["heart"]);
  });

  it("dismisses both the focused and the pointed one, each shown again when pointed at or focused anew", () => {
    let tip = withTip(withTip(NO_TIP, { focus: "heart" }), { point: "laugh" });
    tip = withTip(tip, "escape");
    expect(tipShowing(tip)).toBe(false);
    tip = withTip(withTip(tip, { point: null }), { point: "laugh" });
    expect(tip.dismissed).toEqual(["heart"]);
    expect(tipShowing(tip)).toBe(true);
  });
});

describe("the reactions' tooltip's Escape", () => {
  const key = (name: string) => ({ key: name, preventDefault: vi.fn(), stopPropagation: vi.fn() });

  it("is heard within the dialog the reactions sit in, else the page", () => {
    const dialog = { tagName: "DIALOG" };
    const document = { nodeType: 9 };
    const inDialog = { closest: (selector: string) => (selector === "dialog" ? dialog : null), ownerDocument: document };
    expect(escapeScope(inDialog as unknown as Element)).toBe(dialog);
    expect(escapeScope({ closest: () => null, ownerDocument: document } as unknown as Element)).toBe(document);
  });

  it("is not the tooltip's when pressed in a dialog opened over the reactions: that Escape closes the dialog", () => {
    const document = { nodeType: 9 };
    const sheet = { tagName: "DIALOG" };
    const onPage = { closest: () => null, ownerDocument: document };
    // The pointer still rests on an emoji of a post as the sheet of who reacted (or a report form) is open.
    const inSheet = { closest: (selector: string) => (selector === "dialog" ? sheet : null), ownerDocument: document };
    expect(onReactionsLayer(onPage as unknown as Element, inSheet as unknown as EventTarget)).toBe(false);
    expect(onReactionsLayer(onPage as unknown as Element, onPage as unknown as EventTarget)).toBe(true);
    expect(onReactionsLayer(onPage as unknown as Element, document as unknown as EventTarget)).toBe(true);
    expect(onReactionsLayer(inSheet as unknown as Element, inSheet as unknown as EventTarget)).toBe(true);
  });

  it("dismisses a tooltip that is up and goes no further: the dialog around it stays open until the next Escape", () => {
    const dismiss = vi.fn();
    const escape = key("Escape");
    tipEscape(escape, true, dismiss);
    expect(dismiss).toHaveBeenCalledOnce();
    expect(escape.preventDefault).toHaveBeenCalledOnce();
    expect(escape.stopPropagation).toHaveBeenCalledOnce();
  });

  it("leaves Escape to its owner when no tooltip is up, and other keys alone", () => {
    const dismiss = vi.fn();
    const escape = key("Escape");
    tipEscape(escape, false, dismiss);
    const enter = key("Enter");
    tipEscape(enter, true, dismiss);
    expect(dismiss).not.toHaveBeenCalled();
    expect(escape.preventDefault).not.toHaveBeenCalled();
    expect(enter.preventDefault).not.toHaveBeenCalled();
  });
});
