"use client";

import { useEffect, useState } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { z } from "zod";
import { Alert } from "@/components/ui/Alert";
import { Field } from "@/components/ui/Field";
import { clearSavedLocation, loadSavedLocation, type OnboardingLocation } from "@/lib/onboarding/client/location";
import type { PickedPhoto } from "@/lib/onboarding/client/photo";
import { clearDraft, loadIndividualDraft, saveIndividualDraft, sessionStore } from "@/lib/onboarding/drafts";
import { OCCUPATION_MAX } from "@/lib/onboarding/rules";
import type { SavedStep1 } from "@/lib/onboarding/state";
import { step1Errors, type Step1Field } from "@/lib/onboarding/step-checks";
import { InterestPicker } from "./InterestPicker";
import { LocationAutocomplete } from "./LocationAutocomplete";
import { PhotoPicker } from "./PhotoPicker";
import { SaveProgress } from "./SaveProgress";
import { checksResolver, focusField } from "./stepForm";
import { useStepSave } from "./useStepSave";

type Values = { userImage: PickedPhoto | null; occupation: string; location: OnboardingLocation | null; interests: string[] };
type Categories = Record<string, { value: string; label: string }[]>;

export type Step1Saved = { saved: SavedStep1; isPartnerB: boolean };

/** The server's answer (lib/onboarding/service Step1Result), read only as far as the flow needs it. */
const savedAnswer = z.object({
  data: z.object({
    avatarUrl: z.string(),
    occupation: z.string(),
    interests: z.array(z.string()),
    location: z.object({ location: z.string(), placeId: z.string() }),
    isPartnerB: z.boolean(),
  }),
});

/** Server field names to the form's: both location parts belong to the one location control. */
const FIELD_OF: Record<string, Step1Field> = {
  userImage: "userImage",
  locationPlaceId: "location",
  locationName: "location",
  occupation: "occupation",
  interests: "interests",
};

/** A restored draft first, then the location kept in this tab, then what the server saved. */
function startingValues(userId: string, saved: SavedStep1, categories: Categories): Values {
  const draft = loadIndividualDraft(sessionStore(), userId);
  const offered = new Set(Object.values(categories).flatMap((items) => items.map((item) => item.value)));
  return {
    userImage: draft?.userImage ?? null,
    occupation: draft?.occupation ?? saved.occupation,
    location: draft?.location ?? loadSavedLocation(userId) ?? saved.location,
    interests: (draft?.interests ?? saved.interests).filter((value) => offered.has(value)),
  };
}

/** Step 1, the individual profile: photo, occupation, location and interests. */
export function Step1Form({
  userId,
  categories,
  saved,
  onSaved,
}: {
  userId: string;
  categories: Categories;
  saved: SavedStep1;
  onSaved(result: Step1Saved): Promise<void> | void;
}) {
  const [defaultValues] = useState(() => startingValues(userId, saved, categories));
  const [processingLocation, setProcessingLocation] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const { phase, progress, busy, save } = useStepSave("step1", "/api/onboarding/step1");
  const {
    control,
    register,
    handleSubmit,
    setError,
    setValue,
    formState: { errors },
  } = useForm<Values>({
    defaultValues,
    resolver: checksResolver<Values>((values) => step1Errors({ ...values, hasPhoto: Boolean(values.userImage || saved.avatarUrl) })),
    shouldFocusError: false,
  });
  const values = useWatch({ control }) as Values;

  // Every change is kept, so a reload restores what was typed and the chosen photo.
  useEffect(() => saveIndividualDraft(sessionStore(), userId, values), [userId, values]);

  const onValid = async (values: Values, formElement: HTMLFormElement) => {
    setFormError(null);
    // Submit is disabled without a location; this only satisfies the types.
    if (!values.location) return;
    const form = new FormData();
    form.set("occupation", values.occupation.trim());
    form.set("locationName", values.location.location);
    form.set("locationPlaceId", values.location.placeId);
    for (const interest of values.interests) form.append("interests[]", interest);
    const outcome = await save(form, values.userImage ? [{ field: "userImage", fileName: "user.jpg", photo: values.userImage }] : []);
    if (outcome.ok) {
      clearDraft(sessionStore(), userId, "individual_profile");
      const answer = savedAnswer.safeParse(outcome.json);
      const data = answer.success ? answer.data.data : null;
      await onSaved({
        isPartnerB: data?.isPartnerB ?? false,
        saved: data ?? { occupation: values.occupation.trim(), interests: values.interests, avatarUrl: saved.avatarUrl, location: values.location },
      });
      return;
    }
    if (outcome.code === "INVALID_LOCATION_DATA") {
      // The place cannot be used: the stored copy goes too, and the user chooses again.
      clearSavedLocation(userId);
      setValue("location", null);
    }
    const fields = Object.entries(outcome.fields).map(([field, message]) => [FIELD_OF[field], message] as const);
    for (const [field, message] of fields) if (field) setError(field, { message });
    const unplaced = fields.find(([field]) => !field)?.[1];
    setFormError(outcome.message ?? unplaced ?? null);
    focusField(formElement, fields.find(([field]) => field)?.[0]);
  };

  const label = processingLocation ? "Processing location..." : phase === "compressing" ? "Optimizing photo..." : phase === "uploading" ? "Saving..." : "Continue Setup";
  return (
    <form
      noValidate
      className="step-form"
      onSubmit={(event) => {
        const form = event.currentTarget;
        void handleSubmit(
          (values) => onValid(values, form),
          (found) => focusField(form, Object.keys(found)[0]),
        )(event);
      }}
    >
      {formError && <Alert tone="error">{formError}</Alert>}
      <div data-field="userImage">
        {!values.userImage && saved.avatarUrl && (
          <div className="step-saved-photo">
            {/* eslint-disable-next-line @next/next/no-img-element -- the stored avatar, already at its final size */}
            <img src={saved.avatarUrl} width={400} height={400} alt="Your saved profile photo" className="step-saved-photo-image" />
            <p className="field-hint">Your saved profile photo. Upload a new one to replace it.</p>
          </div>
        )}
        <Controller
          control={control}
          name="userImage"
          render={({ field }) => <PhotoPicker label="Profile photo" kind="avatar" value={field.value} onChange={field.onChange} error={errors.userImage?.message} disabled={busy} />}
        />
      </div>
      <div data-field="occupation">
        <Field label="Occupation" autoComplete="organization-title" maxLength={OCCUPATION_MAX} readOnly={busy} error={errors.occupation?.message} {...register("occupation")} />
      </div>
      <div data-field="location">
        <Controller
          control={control}
          name="location"
          render={({ field }) => (
            <LocationAutocomplete userId={userId} value={field.value} onChange={field.onChange} onBusyChange={setProcessingLocation} error={errors.location?.message} />
          )}
        />
      </div>
      <div data-field="interests">
        <Controller
          control={control}
          name="interests"
          render={({ field }) => <InterestPicker categories={categories} value={field.value} onChange={field.onChange} error={errors.interests?.message} disabled={busy} />}
        />
      </div>
      <SaveProgress phase={phase} progress={progress} labels={{ compressing: "Optimizing photo", uploading: "Saving your profile" }} />
      <button type="submit" className="button button-primary button-block" disabled={busy || processingLocation || !values.location}>
        {label}
      </button>
    </form>
  );
}
