import { describe, expect, it } from "vitest";
import { menuPlacement } from "@/components/ui/menu-placement";

/** A thread's list on a 360 px phone: 12 px in from each side, below the header, above the composer. */
const ROOM = { left: 12, right: 348, top: 120, bottom: 640 };
const MENU = { width: 200, height: 180 };
const button = (left: number, top: number) => ({ left, right: left + 44, top, bottom: top + 44 });

describe("menuPlacement", () => {
  it("opens leftward and down where both fit", () => {
    expect(menuPlacement(button(290, 200), MENU, ROOM, 2)).toEqual({ horizontal: "leftward", vertical: "down" });
  });

  it("opens rightward from a button near the room's left edge (one's own long message, another's short one)", () => {
    expect(menuPlacement(button(40, 200), MENU, ROOM, 2)).toEqual({ horizontal: "rightward", vertical: "down" });
    // Exactly fitting leftward stays leftward (on a wider screen, where rightward fits too).
    const wide = { ...ROOM, right: 1000 };
    expect(menuPlacement(button(168, 200), MENU, wide, 2).horizontal).toBe("leftward");
    expect(menuPlacement(button(167, 200), MENU, wide, 2).horizontal).toBe("rightward");
  });

  it("opens up from a button near the room's bottom (the newest message)", () => {
    expect(menuPlacement(button(290, 560), MENU, ROOM, 2)).toEqual({ horizontal: "leftward", vertical: "up" });
    expect(menuPlacement(button(290, 414), MENU, ROOM, 2).vertical).toBe("down");
    expect(menuPlacement(button(290, 415), MENU, ROOM, 2).vertical).toBe("up");
  });

  it("keeps leftward and down when neither way fits: the room is too small either way", () => {
    const narrow = { left: 0, right: 220, top: 0, bottom: 200 };
    expect(menuPlacement(button(100, 80), MENU, narrow, 2)).toEqual({ horizontal: "leftward", vertical: "down" });
  });
});
