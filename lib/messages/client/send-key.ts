/**
 * The composer's key for a message it sends (lib/messages/service.ts `sentUnderKey`): a call that
 * failed is no proof the message was not sent (lib/transport/client.ts never sends a POST again
 * after a lost answer), so the same words, photo and reply sent again go under the same key and the
 * server answers the first if it arrived; anything else is a new message, a new key. randomUUID
 * exists only in secure contexts: without it, no key (sent as before).
 */
export type OutgoingMessage = { body: string; photoUrl: string | null; replyToId: string | null };
export type UnansweredMessage = OutgoingMessage & { key: string | undefined };

export function sendKey(unanswered: UnansweredMessage | null, outgoing: OutgoingMessage): string | undefined {
  const again =
    unanswered !== null &&
    unanswered.body === outgoing.body &&
    unanswered.photoUrl === outgoing.photoUrl &&
    unanswered.replyToId === outgoing.replyToId;
  return again ? unanswered.key : globalThis.crypto?.randomUUID?.();
}
