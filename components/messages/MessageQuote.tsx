import { quoteText, type MessageQuote as Quote } from "@/lib/messages/display";
import styles from "./MessageItem.module.css";

/** The element a message is shown as in the thread, for a quote to scroll to. */
export const messageElementId = (id: string) => `message-${id}`;

/**
 * The message a reply answers, above it: a tap scrolls to the original (when it is loaded) and
 * puts focus on it, so a keyboard or screen reader lands there too.
 */
export function MessageQuote({ quote }: { quote: Quote }) {
  const goTo = () => {
    const original = document.getElementById(messageElementId(quote.id));
    if (!original) return;
    original.scrollIntoView({ block: "center", behavior: "smooth" });
    original.focus({ preventScroll: true });
  };
  return (
    <button type="button" className={styles.quote} onClick={goTo}>
      <span className="visually-hidden">Replying to </span>
      <span className={styles.quoteAuthor}>{quote.authorFirstName}</span>
      <span className={styles.quoteText}>{quoteText(quote)}</span>
    </button>
  );
}
