"use client";

import { useId, useState } from "react";
import { BADGE_MEANINGS, type CoupleBadge as Badge } from "@/lib/couples/rules";
import styles from "./CoupleBadge.module.css";

/**
 * The couple's badge, explaining itself: a tap, a click or keyboard focus shows what it means under
 * it (also read as the button's description); Escape or leaving it hides it again.
 */
export function CoupleBadge({ badge }: { badge: Badge }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <span className={styles.wrap}>
      <button
        type="button"
        className={styles.button}
        aria-expanded={open}
        aria-describedby={id}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        // Some browsers give a tapped button no focus: the tap itself opens it.
        onClick={() => setOpen(true)}
        onKeyDown={(event) => event.key === "Escape" && setOpen(false)}
      >
        <span className={`${styles.pill} ${badge === "Verified Couple" ? styles.verified : styles.beta}`}>{badge}</span>
      </button>
      <span id={id} role="note" className={styles.meaning} hidden={!open}>
        {BADGE_MEANINGS[badge]}
      </span>
    </span>
  );
}
