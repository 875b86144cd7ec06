/** Multi-select with a ceiling (interests, adventure styles): pure, shared by both pickers. */

/** Unticks a picked value; ticks a new one unless `max` are picked already, in which case the pick is ignored. */
export function togglePick(values: readonly string[], value: string, max: number): string[] {
  if (values.includes(value)) return values.filter((picked) => picked !== value);
  if (values.length >= max) return [...values];
  return [...values, value];
}
