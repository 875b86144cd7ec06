"use client";

import { useEffect, useId, useRef, useState } from "react";
import { Alert } from "@/components/ui/Alert";
import { Dialog } from "@/components/ui/Dialog";
import { answerPlan, calendarFileUrl, cancelPlan, sharePlan, stopSharing } from "@/lib/plans/client/api";
import { googleCalendarUrl, outlookCalendarUrl } from "@/lib/plans/calendar";
import { dateAtPlace, placeLine, timeForViewer } from "@/lib/plans/format";
import { ANSWER_LABELS, answersLine, type PlanAnswer } from "@/lib/plans/rules";
import type { PlanView } from "@/lib/plans/view";
import { endOf, shareEndsAt } from "@/lib/plans/calendar";
import { HowWasIt } from "./HowWasIt";
import { CancelPlanForm, PlanForm } from "./LazyPlanForm";
import styles from "./Plans.module.css";
import { useViewerZone } from "./useViewerZone";

const ANSWER_BUTTONS: { answer: PlanAnswer; label: string }[] = [
  { answer: "going", label: "Going" },
  { answer: "maybe", label: "Maybe" },
  { answer: "cant", label: "Can't" },
];

type Props = { plan: PlanView; viewer: { userId: string; coupleId: string }; onEnded(): void };

/**
 * A plan in its thread, the same for all four and live: what, when (the place's time, the viewer's
 * beside it), where, each person's answer by first name, 'Confirmed' when all are going; answer,
 * change (everyone asked again), cancel (the proposing couple), add to a calendar, safety tips.
 */
export function PlanCard({ plan, viewer, onEnded }: Props) {
  const zone = useViewerZone();
  const titleId = useId();
  const card = useRef<HTMLElement>(null);
  const [editing, setEditing] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  // The cancel form's code (react-hook-form with it) loads as its dialog first opens; the form stays
  // from then on, so a reason typed is still there when the dialog is closed and opened again.
  const [cancelOpened, setCancelOpened] = useState(false);
  // 'Cancel plan', which opened the dialog and gets the focus back as it closes, goes with the plan's
  // actions: once the dialog has closed (its effect runs before this card's), the card takes the focus.
  const focusCard = useRef(false);
  useEffect(() => {
    if (cancelling || !focusCard.current) return;
    focusCard.current = false;
    card.current?.focus();
  }, [cancelling]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [shared, setShared] = useState<string | null>(null);
  // Stopped here: the card says so at once, before the plans load again with `sharing` false.
  const [stopped, setStopped] = useState(false);
  const linkWorks = shared !== null || (plan.sharing && !stopped);
  const mine = plan.answers.find((a) => a.userId === viewer.userId)?.answer ?? null;
  // When the card was shown: a plan that starts while it is open is refused by the server anyway.
  const [shownAt] = useState(() => Date.now());
  const started = new Date(plan.startsAt).getTime() <= shownAt;
  const open = !plan.cancelledAt && !started;
  const over = !plan.cancelledAt && endOf(plan).getTime() <= shownAt;
  // A link can be made, and is stopped from here, until it would stop working by itself.
  const shareable = !plan.cancelledAt && shareEndsAt(plan).getTime() > shownAt;

  async function run(action: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "Something went wrong. Please try again.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <article
      ref={card}
      tabIndex={-1}
      className={styles.card}
      aria-labelledby={titleId}
      data-cancelled={plan.cancelledAt ? true : undefined}
    >
      <header className={styles.cardHeader}>
        <h2 id={titleId} className={styles.cardTitle}>
          {plan.title}
        </h2>
        {plan.confirmed && <span className={styles.confirmed}>Confirmed</span>}
        {plan.cancelledAt && <span className={styles.cancelled}>Cancelled</span>}
      </header>
      <p className={styles.when}>
        {dateAtPlace(plan.startsAt, plan.timeZone)}, {timeForViewer(plan, zone)}
      </p>
      <p>{placeLine(plan)}</p>
      {plan.note && <p className={styles.note}>{plan.note}</p>}
      {plan.cancelledAt && plan.cancelReason && <p className={styles.note}>Why: {plan.cancelReason}</p>}
      <p className={styles.answers}>{answersLine(plan.answers)}</p>
      {over && <HowWasIt plan={plan} />}
      {error && <Alert tone="error">{error}</Alert>}
      {open && (
        <div role="group" aria-label={`Your answer: ${ANSWER_LABELS[mine ?? "none"]}`} className={styles.answerButtons}>
          {ANSWER_BUTTONS.map(({ answer, label }) => (
            <button
              key={answer}
              type="button"
              className={`button ${mine === answer ? "button-primary" : "button-secondary"}`}
              aria-pressed={mine === answer}
              disabled={busy}
              onClick={() => void run(() => answerPlan(plan.id, answer, plan.sequence))}
            >
              {label}
            </button>
          ))}
        </div>
      )}
      <div className={styles.cardLinks}>
        {plan.cancelledAt ? (
          // The file says it is cancelled (a higher SEQUENCE): a calendar that imported it marks it so.
          <a href={calendarFileUrl(plan.id)} download="plan.ics" className="inline-target">
            Mark as cancelled in your calendar (.ics)
          </a>
        ) : (
          <details>
            <summary>Add to calendar</summary>
            <ul>
              <li>
                <a href={calendarFileUrl(plan.id)} download="plan.ics">
                  Calendar file (.ics)
                </a>
              </li>
              <li>
                <a href={googleCalendarUrl(plan)} target="_blank" rel="noopener noreferrer">
                  Google Calendar
                </a>
              </li>
              <li>
                <a href={outlookCalendarUrl(plan)} target="_blank" rel="noopener noreferrer">
                  Outlook on the web
                </a>
              </li>
            </ul>
          </details>
        )}
        {shareable && (
          <details>
            <summary>Share with a friend</summary>
            <p className="field-hint">
              A read-only link: what, when, where and the other couple&apos;s first names and photo. It stops working a day after.
            </p>
            {linkWorks ? (
              <>
                {shared ? (
                  <>
                    <label htmlFor={`${titleId}-share`}>Link to send</label>
                    <input id={`${titleId}-share`} readOnly value={shared} onFocus={(event) => event.target.select()} />
                  </>
                ) : (
                  <p>Your couple&apos;s link is working.</p>
                )}
                <button
                  type="button"
                  className="button button-secondary"
                  disabled={busy}
                  onClick={() =>
                    void run(async () => {
                      await stopSharing(plan.id);
                      setShared(null);
                      setStopped(true);
                    })
                  }
                >
                  Stop sharing
                </button>
              </>
            ) : (
              <button
                type="button"
                className="button button-secondary"
                disabled={busy}
                onClick={() =>
                  void run(async () => {
                    setShared(await sharePlan(plan.id));
                    setStopped(false);
                  })
                }
              >
                Make a link
              </button>
            )}
          </details>
        )}
        <details>
          <summary>Meeting safely</summary>
          <ul>
            <li>Meet in a public place.</li>
            <li>Tell a friend where you are going and when.</li>
            <li>Leave whenever you want to: you owe no one your time.</li>
          </ul>
        </details>
      </div>
      {open && (
        <div className={styles.actions}>
          <button type="button" className="button button-secondary" onClick={() => setEditing(true)}>
            Change
          </button>
          {plan.proposerCoupleId === viewer.coupleId && (
            <button
              type="button"
              className="button button-secondary"
              onClick={() => {
                setCancelOpened(true);
                setCancelling(true);
              }}
            >
              Cancel plan
            </button>
          )}
        </div>
      )}
      <Dialog open={editing} onClose={() => setEditing(false)} title="Change the plan" closeButton>
        {editing && <PlanForm conversationId={plan.conversationId} plan={plan} onDone={() => setEditing(false)} onEnded={onEnded} />}
      </Dialog>
      <Dialog open={cancelling} onClose={() => setCancelling(false)} title="Cancel this plan?" closeButton>
        {cancelOpened && (
          <CancelPlanForm
            id={`${titleId}-reason`}
            busy={busy}
            onKeep={() => setCancelling(false)}
            onCancel={(reason) =>
              run(async () => {
                await cancelPlan(plan.id, reason);
                focusCard.current = true;
                setCancelling(false);
              })
            }
          />
        )}
      </Dialog>
    </article>
  );
}
