"use client";

import type { ReactNode } from "react";
import type { FieldValues, UseFormHandleSubmit } from "react-hook-form";
import { Alert } from "@/components/ui/Alert";
import { SaveProgress, type SavePhase } from "@/components/photos/SaveProgress";
import { focusField } from "@/components/forms/useZodForm";
import styles from "./StepFormFrame.module.css";

type StepFormFrameProps<V extends FieldValues> = {
  handleSubmit: UseFormHandleSubmit<V>;
  onValid(values: V, form: HTMLFormElement): Promise<void>;
  /** The form's own message (a field's message is shown on the field). */
  error: string | null;
  phase: SavePhase;
  progress: number;
  progressLabels: Record<Exclude<SavePhase, "idle">, string>;
  /** The buttons, under the save's progress. */
  actions: ReactNode;
  children: ReactNode;
};

/**
 * What both onboarding steps share around their fields: the form, its message on top, the
 * save's progress and the buttons. A refused check moves focus to the first field it names.
 */
export function StepFormFrame<V extends FieldValues>({
  handleSubmit,
  onValid,
  error,
  phase,
  progress,
  progressLabels,
  actions,
  children,
}: StepFormFrameProps<V>) {
  return (
    <form
      noValidate
      className={styles.form}
      onSubmit={(event) => {
        const form = event.currentTarget;
        void handleSubmit(
          (values) => onValid(values, form),
          (found) => focusField(form, Object.keys(found)[0]),
        )(event);
      }}
    >
      {error && <Alert tone="error">{error}</Alert>}
      {children}
      <SaveProgress phase={phase} progress={progress} labels={progressLabels} />
      {actions}
    </form>
  );
}
