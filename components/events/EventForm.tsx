"use client";

import { useRouter } from "next/navigation";
import { useId, useRef, useState } from "react";
import { createEventAction } from "@/app/(app)/events/actions";
import { useZodForm } from "@/components/forms/useZodForm";
import { LocationSearch } from "@/components/locations/LocationSearch";
import { Alert } from "@/components/ui/Alert";
import { FormActions } from "@/components/ui/FormActions";
import { Field } from "@/components/ui/Field";
import { FieldFrame } from "@/components/ui/FieldFrame";
import { SelectField } from "@/components/ui/SelectField";
import {
  EVENT_CAPACITY_MAX,
  EVENT_CAPACITY_MIN,
  EVENT_CURRENCIES,
  EVENT_DESCRIPTION_MAX,
  EVENT_MESSAGES,
  EVENT_TITLE_MAX,
  eventValues,
  type EventFormValues,
} from "@/lib/events/rules";
import styles from "./EventForm.module.css";
import { reach } from "@/lib/transport/actions";

// The checks load on the first submit, so the page's first paint ships no zod.
const CURRENCY_OPTIONS = EVENT_CURRENCIES.map((currency) => ({ value: currency, label: currency }));

const loadSchema = () => import("@/lib/events/schemas").then((schemas) => schemas.eventFormSchema);

const EMPTY: EventFormValues = {
  title: "",
  startsAt: "",
  placeId: "",
  sessionToken: "",
  capacity: "",
  price: "",
  currency: "EUR",
  description: "",
};

/** The call names the price in cents, the form as typed. */
const formField = (field: string) => (field === "priceCents" ? "price" : field) as keyof EventFormValues;

/** 'YYYY-MM-DDTHH:mm' of now in the browser's zone: the earliest a datetime-local may pick. */
function localNow(): string {
  const now = new Date();
  now.setMinutes(now.getMinutes() - now.getTimezoneOffset());
  return now.toISOString().slice(0, 16);
}

/**
 * The paid event draft form: title, date and time in the future, place through the location
 * search (the place is only chosen here, never saved as anyone's location), capacity, price,
 * description. Saved as a draft only the couple sees; then back to /events.
 */
export function EventForm() {
  const router = useRouter();
  const id = useId();
  // The place is chosen through the search (its id is the form's, its name only shown here).
  const [place, setPlace] = useState<{ placeId: string; description: string } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const placeInput = useRef<HTMLInputElement>(null);
  const [minStart] = useState(localNow);
  const {
    register,
    handleSubmit,
    getValues,
    setValue,
    setError,
    setServerErrors,
    clearErrors,
    formState: { errors, isSubmitting: busy },
  } = useZodForm(loadSchema, EMPTY, "on-submit");
  // `sessionToken`: the search session the pick ended; the place's details, looked up on saving, are billed with it.
  function choosePlace(chosen: { placeId: string; description: string; sessionToken?: string } | null) {
    setPlace(chosen);
    setValue("placeId", chosen?.placeId ?? "");
    setValue("sessionToken", chosen?.sessionToken ?? "");
  }

  // The fields as typed are read into the call's values here too, so a form sent unchecked (its
  // checks could not load) still reaches the server, which checks them with the same messages.
  const submit = handleSubmit(async () => {
    setFailure(null);
    const result = await reach(() => createEventAction(eventValues(getValues())));
    if (result.ok) {
      router.push("/events?drafted=1");
      return;
    }
    setServerErrors(result.fieldErrors ?? {}, formField);
    setFailure(result.message);
  });

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-describedby={failure ? `${id}-failure` : undefined}>
      {failure && (
        <div id={`${id}-failure`}>
          <Alert tone="error">{failure}</Alert>
        </div>
      )}
      <Field label="Title" required maxLength={EVENT_TITLE_MAX} error={errors.title?.message} {...register("title")} />
      <Field
        label="Date and time"
        type="datetime-local"
        required
        min={minStart}
        error={errors.startsAt?.message}
        hint="In your own time zone; it must be in the future."
        {...register("startsAt")}
      />
      <LocationSearch
        label="Place"
        initialQuery=""
        processing={false}
        inputRef={placeInput}
        notice={place ? `Chosen: ${place.description}` : null}
        error={errors.placeId?.message}
        onTyping={() => choosePlace(null)}
        onChoose={async (prediction, sessionToken) => {
          choosePlace({ placeId: prediction.place_id, description: prediction.description, sessionToken });
          clearErrors("placeId");
          return "confirmed";
        }}
        onUseTyped={() => setError("placeId", { message: EVENT_MESSAGES.placeRequired })}
      />
      <div className={styles.row}>
        <Field
          label="Capacity (couples)"
          type="number"
          inputMode="numeric"
          min={EVENT_CAPACITY_MIN}
          max={EVENT_CAPACITY_MAX}
          step={1}
          required
          error={errors.capacity?.message}
          {...register("capacity")}
        />
        <Field
          label="Price per couple"
          type="number"
          inputMode="decimal"
          min={0}
          step="0.01"
          required
          error={errors.price?.message}
          hint="0 for a free event."
          {...register("price")}
        />
        <SelectField
          label="Currency"
          defaultValue="EUR"
          error={errors.currency?.message}
          options={CURRENCY_OPTIONS}
          {...register("currency")}
        />
      </div>
      <FieldFrame label="Description" error={errors.description?.message}>
        {(control) => <textarea {...control} rows={6} maxLength={EVENT_DESCRIPTION_MAX} required {...register("description")} />}
      </FieldFrame>
      <FormActions label="Save draft" busyLabel="Saving..." busy={busy} />
    </form>
  );
}
