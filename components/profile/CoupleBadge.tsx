"use client";

import { useId, useState } from "react";
import { BADGE_MEANINGS, type CoupleBadge as Badge } from "@/lib/couples/rules";
import { PHOTO_BADGE_MEANINGS, type PhotoBadge } from "@/lib/verification/rules";
import styles from "./CoupleBadge.module.css";

const MEANINGS: Record<Badge | PhotoBadge, string> = { ...BADGE_MEANINGS, ...PHOTO_BADGE_MEANINGS };

const toneOf = (badge: Badge | PhotoBadge) =>
  badge === "Verified Couple" ? styles.verified : badge in PHOTO_BADGE_MEANINGS ? styles.photo : styles.beta;

/**
 * A couple's badge ('Verified Couple', 'Beta Member', 'Photo verified', 'Both photo verified'),
 * explaining itself: a tap, a click or keyboard focus shows what it means under it (also read as
 * the button's description); Escape or leaving it hides it again.
 */
export function CoupleBadge({ badge }: { badge: Badge | PhotoBadge }) {
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
        <span className={`${styles.pill} ${toneOf(badge)}`}>{badge}</span>
      </button>
      <span id={id} role="note" className={styles.meaning} hidden={!open}>
        {MEANINGS[badge]}
      </span>
    </span>
  );
}
