import { describe, expect, it } from "vitest";
import { NO_TIP, tipShowing, withTip } from "@/components/reactions/tooltip";

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
