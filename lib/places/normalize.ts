/** Letters NFD does not decompose, spelled the way people type them on a plain keyboard. */
const FOLD: Record<string, string> = { ø: "o", æ: "ae", œ: "oe", ß: "ss", ł: "l", đ: "d", ð: "d", ı: "i", þ: "th", ħ: "h" };

/**
 * The search form of a name: accents stripped, lower-cased, apostrophes dropped ("St. John's"
 * and "st johns" meet), every other run of punctuation or space one space.
 */
export function normalizeText(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[øæœßłđðıþħ]/g, (c) => FOLD[c] ?? c)
    .replace(/['’ʻ`´]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}
