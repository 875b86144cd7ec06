"use client";

import { dateAtPlace, placeLine, timeForViewer } from "@/lib/plans/format";
import type { SharedPlan } from "@/lib/plans/share";
import { useViewerZone } from "./useViewerZone";
import styles from "./Plans.module.css";

/** What a friend sees of a shared plan: what, when (the place's time, theirs beside it), where, and whom with (first names, main photo). */
export function SharedPlanView({ plan }: { plan: SharedPlan }) {
  const zone = useViewerZone();
  return (
    <div className={styles.card}>
      <p className={styles.when}>
        {dateAtPlace(plan.startsAt, plan.timeZone)}, {timeForViewer(plan, zone)}
      </p>
      <p>{[placeLine(plan), plan.place.country].filter(Boolean).join(", ")}</p>
      {plan.meeting && (
        <p className={styles.meeting}>
          {plan.meeting.photoUrl && (
            // eslint-disable-next-line @next/next/no-img-element -- the couple's main photo, already resized by the server
            <img src={plan.meeting.photoUrl} alt="" width={56} height={56} />
          )}
          <span>Meeting {plan.meeting.firstNames.join(" and ")}</span>
        </p>
      )}
    </div>
  );
}
