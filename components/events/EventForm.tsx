"use client";

import { useRouter } from "next/navigation";
import { useId, useRef, useState, type FormEvent } from "react";
import { createEventAction } from "@/app/(app)/events/actions";
import { LocationSearch } from "@/components/locations/LocationSearch";
import { Alert } from "@/components/ui/Alert";
import { Field } from "@/components/ui/Field";
import {
  EVENT_CAPACITY_MAX,
  EVENT_CAPACITY_MIN,
  EVENT_CURRENCIES,
  EVENT_DESCRIPTION_MAX,
  EVENT_MESSAGES,
  EVENT_TITLE_MAX,
} from "@/lib/events/rules";
import styles from "./EventForm.module.css";

type Errors = Partial<Record<"title" | "startsAt" | "placeId" | "capacity" | "priceCents" | "currency" | "description", string>>;

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
  const [place, setPlace] = useState<{ placeId: string; description: string } | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const placeInput = useRef<HTMLInputElement>(null);
  const [minStart] = useState(localNow);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "");
    const startsLocal = text("startsAt");
    const starts = startsLocal ? new Date(startsLocal) : null;
    const price = Number(text("price").replace(",", "."));
    const values = {
      title: text("title"),
      startsAt: starts && !Number.isNaN(starts.getTime()) ? starts.toISOString() : "",
      placeId: place?.placeId ?? "",
      capacity: Number(text("capacity")),
      priceCents: text("price").trim() === "" || !Number.isFinite(price) ? -1 : Math.round(price * 100),
      currency: text("currency"),
      description: text("description"),
    };
    const local: Errors = {};
    if (!place) local.placeId = EVENT_MESSAGES.placeRequired;
    if (!values.startsAt) local.startsAt = EVENT_MESSAGES.startsAtRequired;
    if (Object.keys(local).length > 0) {
      setErrors(local);
      return;
    }
    setBusy(true);
    setFailure(null);
    const result = await createEventAction(values);
    setBusy(false);
    if (result.ok) {
      router.push("/events?drafted=1");
      return;
    }
    setErrors((result.fieldErrors ?? {}) as Errors);
    setFailure(result.message);
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-describedby={failure ? `${id}-failure` : undefined}>
      {failure && (
        <div id={`${id}-failure`}>
          <Alert tone="error">{failure}</Alert>
        </div>
      )}
      <Field label="Title" name="title" required maxLength={EVENT_TITLE_MAX} error={errors.title} />
      <Field
        label="Date and time"
        name="startsAt"
        type="datetime-local"
        required
        min={minStart}
        error={errors.startsAt}
        hint="In your own time zone; it must be in the future."
      />
      <LocationSearch
        label="Place"
        initialQuery=""
        processing={false}
        inputRef={placeInput}
        notice={place ? `Chosen: ${place.description}` : null}
        error={errors.placeId}
        onTyping={() => setPlace(null)}
        onChoose={async (prediction) => {
          setPlace({ placeId: prediction.place_id, description: prediction.description });
          setErrors((previous) => ({ ...previous, placeId: undefined }));
          return "confirmed";
        }}
        onUseTyped={() => setErrors((previous) => ({ ...previous, placeId: EVENT_MESSAGES.placeRequired }))}
      />
      <div className={styles.row}>
        <Field
          label="Capacity (couples)"
          name="capacity"
          type="number"
          inputMode="numeric"
          min={EVENT_CAPACITY_MIN}
          max={EVENT_CAPACITY_MAX}
          step={1}
          required
          error={errors.capacity}
        />
        <Field
          label="Price per couple"
          name="price"
          type="number"
          inputMode="decimal"
          min={0}
          step="0.01"
          required
          error={errors.priceCents}
          hint="0 for a free event."
        />
        <div className="field">
          <label htmlFor={`${id}-currency`}>Currency</label>
          <select id={`${id}-currency`} name="currency" defaultValue="EUR" aria-invalid={errors.currency ? true : undefined}>
            {EVENT_CURRENCIES.map((currency) => (
              <option key={currency}>{currency}</option>
            ))}
          </select>
          {errors.currency && <p className="field-error">{errors.currency}</p>}
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${id}-description`}>Description</label>
        <textarea
          id={`${id}-description`}
          name="description"
          rows={6}
          maxLength={EVENT_DESCRIPTION_MAX}
          required
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={errors.description ? `${id}-description-error` : undefined}
        />
        {errors.description && (
          <p id={`${id}-description-error`} className="field-error">
            {errors.description}
          </p>
        )}
      </div>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? "Saving..." : "Save draft"}
        </button>
      </div>
    </form>
  );
}
