import type { ReactNode } from "react";
import styles from "./InviteCard.module.css";

/** The page of partner A's invitation and partner B's set-up: one card. */
export function InviteCard({ labelledBy, children }: { labelledBy?: string; children: ReactNode }) {
  return (
    <main id="main" className={styles.page}>
      <section className={styles.card} aria-labelledby={labelledBy}>
        {children}
      </section>
    </main>
  );
}

/** The sentence under the card's title. */
export function InviteLead({ children }: { children: ReactNode }) {
  return <p className={styles.lead}>{children}</p>;
}
