/**
 * '... is typing' in the browser: when the composer says so, how long a typist stays shown, and
 * the line that names them. Pure and browser-safe.
 */

/** The composer tells the others at most this often while its person types. */
export const TYPING_SEND_EVERY_MS = 3_000;

/** A typist stays shown this long after their last signal (a little over the send period, for the way there). */
export const TYPING_SHOWN_MS = 5_000;

/** Someone shown as typing until `until` (ms since the epoch, this browser's clock). */
export type Typist = { userId: string; firstName: string; until: number };

/** What the stream's `typing` event carries (lib/messages/typing.ts). */
export type TypingSignal = { conversationId: string; userId: string; firstName: string };

/** Whether a keystroke at `now` tells the others again (`lastSentAt`: null when not told since the last message). */
export const typingDue = (lastSentAt: number | null, now: number): boolean =>
  lastSentAt === null || now - lastSentAt >= TYPING_SEND_EVERY_MS;

/**
 * The typists after a signal at `now`: the person shown for TYPING_SHOWN_MS more, in the place
 * they already had (the line's words change only when who is typing does).
 */
export function withTypist(typists: readonly Typist[], signal: Pick<TypingSignal, "userId" | "firstName">, now: number): Typist[] {
  const typist = { userId: signal.userId, firstName: signal.firstName, until: now + TYPING_SHOWN_MS };
  const shown = typists.some((each) => each.userId === signal.userId);
  return shown ? typists.map((each) => (each.userId === signal.userId ? typist : each)) : [...typists, typist];
}

/** The typists without `userId` (their message arrived). */
export const withoutTypist = (typists: readonly Typist[], userId: string | null): Typist[] =>
  typists.filter((each) => each.userId !== userId);

/** Those still shown at `now`. */
export const stillTyping = (typists: readonly Typist[], now: number): Typist[] => typists.filter((each) => each.until > now);

/** When the next typist stops being shown, or null when nobody is. */
export const nextExpiry = (typists: readonly Typist[]): number | null =>
  typists.length === 0 ? null : Math.min(...typists.map((each) => each.until));

/** 'Marisol is typing…', 'Marisol and Thaddeus are typing…', 'Marisol, Thaddeus and Ana are typing…'; "" for nobody. */
export function typingLine(typists: readonly Pick<Typist, "firstName">[]): string {
  const names = typists.map((each) => each.firstName);
  if (names.length === 0) return "";
  if (names.length === 1) return `${names[0]} is typing…`;
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)} are typing…`;
}
