/**
 * What a screen reader hears as a live list grows (a conversation's messages, a forum thread's
 * replies): the list itself is silent, as older pages, reactions and edits change it too; what
 * others added after the newest item heard before is read out. Pure and browser-safe.
 */
export type Arrival = { id: string; text: string };

/**
 * The items after `sinceId` (all of them when it is "": the list was empty), each as `heardAs`
 * words it, or skipped when it gives null (one's own, a deleted one). Nothing when `sinceId` is
 * not among them (another list's). Each keeps its item's id, so two arrivals in the same words
 * are two changes a screen reader hears.
 */
export function arrivals<Item extends { id: string }>(
  items: readonly Item[],
  sinceId: string,
  heardAs: (item: Item) => string | null,
): Arrival[] {
  const since = sinceId === "" ? -1 : items.findIndex((item) => item.id === sinceId);
  if (sinceId !== "" && since < 0) return [];
  return items.slice(since + 1).flatMap((item) => {
    const text = heardAs(item);
    return text === null ? [] : [{ id: item.id, text }];
  });
}
