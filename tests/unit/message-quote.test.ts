import type { ReactElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MessageQuote, messageElementId } from "@/components/messages/MessageQuote";

const quote = { id: "m1", authorFirstName: "Ana", excerpt: "See you at eight", photo: false, deleted: false };

/** A tap on the quote, in a page holding the original message, under the given motion setting. */
function tap(reducedMotion: boolean) {
  const original = { scrollIntoView: vi.fn(), focus: vi.fn() };
  vi.stubGlobal("document", { getElementById: (id: string) => (id === messageElementId(quote.id) ? original : null) });
  vi.stubGlobal("matchMedia", (query: string) => ({ matches: query === "(prefers-reduced-motion: reduce)" && reducedMotion }));
  (MessageQuote({ quote }) as ReactElement<{ onClick(): void }>).props.onClick();
  return original;
}

afterEach(() => vi.unstubAllGlobals());

describe("a reply's quote", () => {
  it("glides to the original, and puts focus on it", () => {
    const original = tap(false);
    expect(original.scrollIntoView).toHaveBeenCalledWith({ block: "center", behavior: "smooth" });
    expect(original.focus).toHaveBeenCalledWith({ preventScroll: true });
  });

  // WCAG 2.3.3: a reader who asked for less motion is taken there in one jump.
  it("jumps there when the reader's device asks for reduced motion", () => {
    const original = tap(true);
    expect(original.scrollIntoView).toHaveBeenCalledWith({ block: "center", behavior: "auto" });
    expect(original.focus).toHaveBeenCalledWith({ preventScroll: true });
  });
});
