"use client";

import { useMemo, useRef, useState } from "react";
import { Controller, useWatch } from "react-hook-form";
import { LocationSearch } from "@/components/locations/LocationSearch";
import { Alert } from "@/components/ui/Alert";
import { FormActions } from "@/components/ui/FormActions";
import { Field } from "@/components/ui/Field";
import { FieldFrame } from "@/components/ui/FieldFrame";
import { SelectField } from "@/components/ui/SelectField";
import { useZodForm } from "@/components/forms/useZodForm";
import { ApiError } from "@/lib/transport/client";
import { changePlan, proposePlan } from "@/lib/plans/client/api";
import { NOTE_MAX, TITLE_MAX, VENUE_MAX } from "@/lib/plans/rules";
import type { PlanFormValues, PlanInput } from "@/lib/plans/schemas";
import { wallClockAt } from "@/lib/plans/time";
import type { PlanView } from "@/lib/plans/view";
import { whereOf } from "@/lib/plans/form-values";
import styles from "./Plans.module.css";

/** The call's fields the form shows under other names: the form takes a day and two times. */
const CALL_FIELDS: Record<string, string> = { startsAt: "time", endsAt: "endTime" };

const loadSchema = () => import("@/lib/plans/schemas").then((m) => m.planFormSchema);
const pad = (n: number) => String(n).padStart(2, "0");

const EMPTY: PlanFormValues = {
  title: "",
  date: "",
  time: "",
  endTime: "",
  placeId: "",
  sessionToken: "",
  placeName: "",
  timeZone: "",
  venue: "",
  note: "",
};

/** The zones a place typed by hand may be in (the runtime's list), the browser's own among them. */
function zoneChoices(own: string): string[] {
  const zones = Intl.supportedValuesOf("timeZone");
  return zones.includes(own) ? zones : [own, ...zones];
}
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The form's values for a plan being changed: its date and times as the place's clock reads them. */
function valuesOf(plan: PlanView | null): PlanFormValues {
  if (!plan) return EMPTY;
  const start = wallClockAt(new Date(plan.startsAt), plan.timeZone);
  const end = plan.endsAt ? wallClockAt(new Date(plan.endsAt), plan.timeZone) : null;
  return {
    title: plan.title,
    date: `${start.year}-${pad(start.month)}-${pad(start.day)}`,
    time: `${pad(start.hour)}:${pad(start.minute)}`,
    endTime: end ? `${pad(end.hour)}:${pad(end.minute)}` : "",
    ...whereOf(plan),
    venue: plan.venue ?? "",
    note: plan.note ?? "",
  };
}

/** `plan`: the plan being changed; `start`: a new plan's first values and its place's name ('Plan again'). */
type Props = {
  conversationId: string;
  plan: PlanView | null;
  start?: { values: Partial<PlanFormValues>; placeName: string };
  onDone(): void;
  onEnded(): void;
};

/**
 * 'Plan a meetup' and 'Change': what, when (the place's date and time, an optional end), where (the
 * place search: a city, or a venue with Google; typed by hand, with its time zone, when the search
 * finds nothing or is down, as onboarding's location field offers), a venue and a note. A change
 * asks everyone again.
 */
export function PlanForm({ conversationId, plan, start, onDone, onEnded }: Props) {
  const form = useZodForm(loadSchema, { ...valuesOf(plan), ...start?.values }, "on-submit");
  const { register, control, handleSubmit, setServerErrors, setValue, getValues, formState } = form;
  // The venue-like text field reads as unknown before parsing: it is a string or nothing.
  const typedPlace = (useWatch({ control, name: "placeName" }) as string | null | undefined) ?? "";
  const zones = useMemo(() => (typedPlace ? zoneChoices(browserZone()) : []), [typedPlace]);
  const [failure, setFailure] = useState<string | null>(null);
  // The plan as the form was opened on it: a change made meanwhile by another is not overwritten.
  const [openedOn] = useState(plan?.sequence ?? 0);
  const placeInput = useRef<HTMLInputElement>(null);
  const [placeName, setPlaceName] = useState(
    plan ? [plan.place.name, plan.place.country].filter(Boolean).join(", ") : (start?.placeName ?? ""),
  );

  const submit = handleSubmit(async (input: PlanInput) => {
    setFailure(null);
    try {
      if (plan) await changePlan(plan.id, input, openedOn);
      else await proposePlan(conversationId, input);
      onDone();
    } catch (error) {
      if (error instanceof ApiError && error.code === "CONVERSATION_ENDED") return onEnded();
      const fields = error instanceof ApiError ? error.fields : {};
      setServerErrors(fields, (field) => CALL_FIELDS[field] ?? field);
      if (Object.keys(fields).length === 0) setFailure(error instanceof Error ? error.message : "Could not save the plan");
    }
  });

  const errors = formState.errors;
  return (
    <form
      className={styles.form}
      onSubmit={(event) => {
        // A form of its own wherever it is shown: its submit never reaches an enclosing one.
        event.stopPropagation();
        void submit(event);
      }}
      noValidate
    >
      {failure && <Alert tone="error">{failure}</Alert>}
      <Field label="What" maxLength={TITLE_MAX * 2} placeholder="Dinner and a walk" error={errors.title?.message} {...register("title")} />
      <div className={styles.when}>
        <Field label="Date" type="date" error={errors.date?.message} {...register("date")} />
        <Field label="Starts" type="time" error={errors.time?.message} {...register("time")} />
        <Field label="Ends (optional)" type="time" error={errors.endTime?.message} {...register("endTime")} />
      </div>
      <Controller
        control={control}
        name="placeId"
        render={({ field, fieldState }) => (
          <LocationSearch
            label="Where"
            initialQuery={placeName}
            processing={false}
            onChoose={async (prediction, sessionToken) => {
              field.onChange(prediction.place_id);
              // The pick ends the search's session: its details, looked up on saving, are billed with it.
              setValue("sessionToken", sessionToken ?? "");
              setValue("placeName", "");
              setPlaceName(prediction.description);
              return "confirmed";
            }}
            onUseTyped={(typed) => {
              field.onChange("");
              setValue("sessionToken", "");
              setValue("placeName", typed);
              setValue("timeZone", getValues("timeZone") || browserZone());
            }}
            manualHint="Everyone sees the place as you typed it."
            onTyping={() => {
              field.onChange("");
              setValue("sessionToken", "");
              setValue("placeName", "");
            }}
            notice={null}
            error={fieldState.error?.message ?? errors.placeName?.message}
            inputRef={placeInput}
          />
        )}
      />
      {typedPlace && (
        <SelectField
          label="Time zone of the place"
          error={errors.timeZone?.message}
          // Said as it appears, and read with the select.
          hint={<span role="status">Typed by hand: {typedPlace}. Choose the time zone of the place, so everyone sees the right time.</span>}
          options={zones.map((zone) => ({ value: zone, label: zone.replace(/_/g, " ") }))}
          {...register("timeZone")}
        />
      )}
      <p className="field-hint">Times are the place&apos;s own: everyone sees them in its time zone.</p>
      <Field
        label="Venue (optional)"
        maxLength={VENUE_MAX * 2}
        placeholder="Time Out Market"
        error={errors.venue?.message}
        {...register("venue")}
      />
      <FieldFrame label="Note (optional)" error={errors.note?.message}>
        {(control) => <textarea {...control} rows={3} maxLength={NOTE_MAX * 2} {...register("note")} />}
      </FieldFrame>
      <FormActions
        label={plan ? "Change and ask again" : "Propose"}
        busyLabel="Saving..."
        busy={formState.isSubmitting}
        onCancel={onDone}
        cancelLabel="Back"
      />
    </form>
  );
}
