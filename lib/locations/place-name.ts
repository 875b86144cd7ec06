/**
 * How a place is written everywhere it is shown: its parts, most precise first, separated by
 * commas, each once ('Lisbon, Portugal', never 'Lisbon, Lisbon, Portugal', where a city shares its
 * region's name; 'Singapore', never 'Singapore, Singapore'). Parts may themselves hold commas (a
 * stored name from before this rule): every comma-separated piece is one part. Pure and browser-safe.
 */
export const placeName = (...parts: (string | null | undefined)[]): string => placeParts(...parts).join(", ");

/** The parts placeName writes, in order, each once. */
export function placeParts(...parts: (string | null | undefined)[]): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const part of parts) {
    if (!part) continue;
    for (const piece of part.split(",")) {
      const name = piece.trim();
      const key = name.toLocaleLowerCase("en");
      if (name === "" || seen.has(key)) continue;
      seen.add(key);
      kept.push(name);
    }
  }
  return kept;
}
