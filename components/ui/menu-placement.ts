/** A rectangle in the viewport's coordinates, as getBoundingClientRect gives it. */
export type Box = { left: number; right: number; top: number; bottom: number };

/** Which way a menu opens from its button: leftward (its right edge under the button's) or rightward, down or up. */
export type Placement = { horizontal: "leftward" | "rightward"; vertical: "down" | "up" };

/**
 * Where a menu of `size` opens from its `button` so that it stays inside `room` (what shows it:
 * a scrolling list clips what sticks out of it, the viewport everything). Leftward and down unless
 * that leaves the room and the other way does not: a message's menu near the list's left edge
 * opens rightward, the newest message's menu opens up. `gap`: between the button and the menu.
 */
export function menuPlacement(button: Box, size: { width: number; height: number }, room: Box, gap: number): Placement {
  const leftwardFits = button.right - size.width >= room.left;
  const rightwardFits = button.left + size.width <= room.right;
  const downFits = button.bottom + gap + size.height <= room.bottom;
  const upFits = button.top - gap - size.height >= room.top;
  return {
    horizontal: !leftwardFits && rightwardFits ? "rightward" : "leftward",
    vertical: !downFits && upFits ? "up" : "down",
  };
}

/** The part of the viewport an element is shown in: the viewport cut by every ancestor that clips its overflow. */
export function visibleRoom(element: Element): Box {
  const room: Box = { left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight };
  for (let ancestor = element.parentElement; ancestor; ancestor = ancestor.parentElement) {
    const { overflowX, overflowY } = getComputedStyle(ancestor);
    if (overflowX === "visible" && overflowY === "visible") continue;
    const box = ancestor.getBoundingClientRect();
    room.left = Math.max(room.left, box.left);
    room.top = Math.max(room.top, box.top);
    room.right = Math.min(room.right, box.right);
    room.bottom = Math.min(room.bottom, box.bottom);
  }
  return room;
}
