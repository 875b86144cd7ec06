"use client";

import Link from "next/link";
import { useLive } from "@/lib/live/client/use-live";
import { fetchUpcomingPlans, UPCOMING_PLANS_KEY } from "@/lib/plans/client/api";
import { upcomingLine } from "@/lib/plans/format";
import type { UpcomingPlan } from "@/lib/plans/view";
import { useViewerZone } from "./useViewerZone";
import styles from "./Plans.module.css";

/** 'Upcoming' on /messages and the dashboard: 'Sat 14 Dec, 19:30 · Time Out Market, Lisbon · 3 of 4 going', live. */
export function UpcomingPlans({ initial, headingLevel = 2 }: { initial: UpcomingPlan[]; headingLevel?: 2 | 3 }) {
  const state = useLive(UPCOMING_PLANS_KEY, (signal) => fetchUpcomingPlans(signal), { initial });
  const zone = useViewerZone();
  const plans = state.status === "ready" ? state.value : initial;
  if (plans.length === 0) return null;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <section className={styles.upcoming} aria-labelledby="upcoming-plans">
      <Heading id="upcoming-plans">Upcoming</Heading>
      <ul>
        {plans.map((plan) => (
          <li key={plan.id}>
            {/* Not prefetched: a conversation is rendered per request (CoupleCard's rule). */}
            <Link href={`/messages/${encodeURIComponent(plan.conversationId)}`} prefetch={false}>
              <strong>{plan.title}</strong>
              <span>{upcomingLine(plan, zone)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
