"use client";

import { useTypists } from "@/lib/messages/client/typing";
import { typingLine } from "@/lib/messages/typing-view";
import styles from "./TypingLine.module.css";

/**
 * 'Marisol is typing…' under the messages, for the others in the conversation. A polite live region
 * that is always there: its words change only when who is typing does, so a screen reader hears
 * each change once, not every signal.
 */
export function TypingLine({ conversationId }: { conversationId: string }) {
  const line = typingLine(useTypists(conversationId));
  return (
    <p className={styles.typing} aria-live="polite">
      {line}
    </p>
  );
}
