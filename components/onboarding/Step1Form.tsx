"use client";

import { useState } from "react";
import { Controller, useWatch } from "react-hook-form";
import { useZodForm } from "@/components/forms/useZodForm";
import { Field } from "@/components/ui/Field";
import { clearSavedLocation, loadSavedLocation, type OnboardingLocation } from "@/lib/locations/client/saved-location";
import type { PickedPhoto } from "@/lib/images/client/photo";
import { sessionStore } from "@/lib/forms/draft-store";
import { individualDraft } from "@/lib/onboarding/drafts";
import { OCCUPATION_MAX } from "@/lib/profile/rules";
import type { SavedStep1 } from "@/lib/onboarding/queries";
import { step1AnswerSchema } from "@/lib/onboarding/schemas";
import type { Step1Field } from "@/lib/onboarding/step-checks";
import { LocationAutocomplete } from "@/components/locations/LocationAutocomplete";
import { PhotoPicker } from "@/components/photos/PhotoPicker";
import { InterestsPicker } from "@/components/profile/ProfileChoices";
import { StepFormFrame } from "./StepFormFrame";
import { useStepSave } from "./useStepSave";

type Values = { userImage: PickedPhoto | null; occupation: string; location: OnboardingLocation | null; interests: string[] };
type Categories = Record<string, { value: string; label: string }[]>;

export type Step1Saved = { saved: SavedStep1; isPartnerB: boolean };

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
  const draft = individualDraft.load(sessionStore(), userId);
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
  const {
    control,
    register,
    setValue,
    setError,
    handleSubmit,
    clearDraft,
    formState: { errors },
  } = useZodForm(
    () => import("@/lib/onboarding/form-schemas").then((schemas) => schemas.step1FormSchema<Values>(Boolean(saved.avatarUrl))),
    defaultValues,
    "from-submit",
    { store: individualDraft, userId },
  );
  const values = useWatch({ control }) as Values;
  const { busy, phase, progress, formError, submit } = useStepSave<Step1Field>("step1", "/api/onboarding/step1", { setError, clearDraft });

  const onValid = async (values: Values, formElement: HTMLFormElement) => {
    // Submit is disabled without a location; this only satisfies the types.
    const location = values.location;
    if (!location) return;
    const form = new FormData();
    form.set("occupation", values.occupation.trim());
    form.set("locationName", location.location);
    form.set("locationPlaceId", location.placeId);
    for (const interest of values.interests) form.append("interests[]", interest);
    await submit({
      formElement,
      form,
      photos: values.userImage ? [{ field: "userImage", fileName: "user.jpg", photo: values.userImage }] : [],
      fieldOf: (field) => FIELD_OF[field],
      onSaved: async (json) => {
        const answer = step1AnswerSchema.safeParse(json);
        const data = answer.success ? answer.data.data : null;
        await onSaved({
          isPartnerB: data?.isPartnerB ?? false,
          saved: data ?? { occupation: values.occupation.trim(), interests: values.interests, avatarUrl: saved.avatarUrl, location },
        });
      },
      onRefused: (code) => {
        if (code !== "INVALID_LOCATION_DATA") return;
        // The place cannot be used: the stored copy goes too, and the user chooses again.
        clearSavedLocation(userId);
        setValue("location", null);
      },
    });
  };

  const waitsForPlace = !values.location && !processingLocation;
  const label = processingLocation
    ? "Processing location..."
    : phase === "compressing"
      ? "Optimizing photo..."
      : phase === "uploading"
        ? "Saving..."
        : "Continue Setup";
  return (
    <StepFormFrame
      handleSubmit={handleSubmit}
      error={formError}
      phase={phase}
      progress={progress}
      onValid={onValid}
      progressLabels={{ compressing: "Optimizing photo", uploading: "Saving your profile" }}
      actions={
        <>
          {/* The spec keeps the button disabled without a place; this says why, next to it. */}
          {waitsForPlace && (
            <p id="continue-setup-reason" className="field-hint">
              Confirm your location above to continue.
            </p>
          )}
          <button
            type="submit"
            className="button button-primary button-block"
            disabled={busy || processingLocation || !values.location}
            aria-describedby={waitsForPlace ? "continue-setup-reason" : undefined}
          >
            {label}
          </button>
        </>
      }
    >
      <div data-field="userImage">
        <Controller
          control={control}
          name="userImage"
          render={({ field }) => (
            <PhotoPicker
              saved={{
                url: saved.avatarUrl,
                alt: "Your saved profile photo",
                hint: "Your saved profile photo. Upload a new one to replace it.",
              }}
              label="Profile photo"
              kind="avatar"
              value={field.value}
              onChange={field.onChange}
              error={errors.userImage?.message}
              disabled={busy}
            />
          )}
        />
      </div>
      <div data-field="occupation">
        <Field
          label="Occupation"
          autoComplete="organization-title"
          maxLength={OCCUPATION_MAX}
          readOnly={busy}
          error={errors.occupation?.message}
          {...register("occupation")}
        />
      </div>
      <div data-field="location">
        <Controller
          control={control}
          name="location"
          render={({ field }) => (
            <LocationAutocomplete
              userId={userId}
              value={field.value}
              onChange={field.onChange}
              onBusyChange={setProcessingLocation}
              error={errors.location?.message}
            />
          )}
        />
      </div>
      <div data-field="interests">
        <Controller
          control={control}
          name="interests"
          render={({ field }) => (
            <InterestsPicker
              categories={categories}
              value={field.value}
              onChange={field.onChange}
              error={errors.interests?.message}
              disabled={busy}
            />
          )}
        />
      </div>
    </StepFormFrame>
  );
}
