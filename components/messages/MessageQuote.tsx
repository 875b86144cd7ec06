import { quoteText, type MessageQuote as Quote } from "@/lib/messages/display";
import styles from "./MessageItem.module.css";

/** The element a message is shown as in the thread, for a quote to scroll to. */
export const messageElementId = (id: string) => `message-${id}`;

/**
 * The message a reply answers, above it: a tap scrolls to the original (when it is loaded) and
 * puts focus on it, so a keyboard or screen reader lands there too. It glides there, or jumps where
 * the device asks for reduced motion (WCAG 2.3.3).
 */
export function MessageQuote({ quote }: { quote: Quote }) {
  const goTo = () => {
    const original = document.getElementById(messageElementId(quote.id));
    if (!original) return;
    const reduced = matchMedia("(prefers-reduced-motion: reduce)").matches;
    original.scrollIntoView({ block: "center", behavior: reduced ? "auto" : "smooth" });
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
