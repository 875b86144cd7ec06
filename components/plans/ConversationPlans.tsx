"use client";

import { useState } from "react";
import { Dialog } from "@/components/ui/Dialog";
import { useLive } from "@/lib/live/client/use-live";
import { conversationPlansKey, fetchConversationPlans } from "@/lib/plans/client/api";
import type { PlanView } from "@/lib/plans/view";
import { PlanCard } from "./PlanCard";
import { PlanForm } from "./LazyPlanForm";
import styles from "./Plans.module.css";

type Props = { conversationId: string; viewer: { userId: string; coupleId: string }; initial: PlanView[]; onEnded(): void };

/** The conversation's plans above its messages, live for all four. */
export function ConversationPlans({ conversationId, viewer, initial, onEnded }: Props) {
  const state = useLive(conversationPlansKey(conversationId), (signal) => fetchConversationPlans(conversationId, signal), { initial });
  const plans = state.status === "ready" ? state.value : initial;
  if (plans.length === 0) return null;
  return (
    <section className={styles.plans} aria-label="Plans">
      {plans.map((plan) => (
        <PlanCard key={plan.id} plan={plan} viewer={viewer} onEnded={onEnded} />
      ))}
    </section>
  );
}

/** 'Plan a meetup' among the conversation's actions: the plan form in a dialog. */
export function PlanMeetupButton({ conversationId, onEnded }: { conversationId: string; onEnded(): void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button button-secondary" onClick={() => setOpen(true)}>
        Plan a meetup
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Plan a meetup" closeButton>
        {open && <PlanForm conversationId={conversationId} plan={null} onDone={() => setOpen(false)} onEnded={onEnded} />}
      </Dialog>
    </>
  );
}
