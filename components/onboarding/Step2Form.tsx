"use client";

import { useState } from "react";
import { Controller } from "react-hook-form";
import { useZodForm } from "@/components/forms/useZodForm";
import { Field } from "@/components/ui/Field";
import type { PickedPhoto } from "@/lib/images/client/photo";
import { sessionStore } from "@/lib/forms/draft-store";
import { coupleDraft } from "@/lib/onboarding/drafts";
import { COUPLE_NAME_MAX } from "@/lib/couples/rules";
import type { Step2Field } from "@/lib/onboarding/step-checks";
import { BioField } from "@/components/profile/BioField";
import { PhotoGallery } from "@/components/photos/PhotoGallery";
import { PhotoPicker } from "@/components/photos/PhotoPicker";
import { StylesPicker } from "@/components/profile/ProfileChoices";
import { StepFormFrame } from "./StepFormFrame";
import { useStepSave, type PhotoPart } from "./useStepSave";
import styles from "./Step2Form.module.css";

type Values = {
  couple_name: string;
  coupleProfileImage: PickedPhoto | null;
  couplePhotos: PickedPhoto[];
  coupleTypes: string[];
  bio: string;
};

const EMPTY: Values = { couple_name: "", coupleProfileImage: null, couplePhotos: [], coupleTypes: [], bio: "" };
const FIELDS: readonly string[] = ["couple_name", "coupleProfileImage", "couplePhotos", "coupleTypes", "bio"] satisfies Step2Field[];
const isField = (name: string): name is Step2Field => FIELDS.includes(name);

const loadSchema = () => import("@/lib/onboarding/form-schemas").then((schemas) => schemas.step2FormSchema<Values>());

/** Step 2, the couple profile (partner A): name, photos, adventure styles and bio. */
export function Step2Form({ userId, onBack, onSaved }: { userId: string; onBack(): void; onSaved(): Promise<void> | void }) {
  const [defaultValues] = useState<Values>(() => ({ ...EMPTY, ...coupleDraft.load(sessionStore(), userId) }));
  const {
    control,
    register,
    setError,
    handleSubmit,
    clearDraft,
    formState: { errors },
  } = useZodForm(loadSchema, defaultValues, "from-submit", { store: coupleDraft, userId });
  const { busy, phase, progress, formError, submit } = useStepSave<Step2Field>("step2", "/api/onboarding/step2", { setError, clearDraft });

  const onValid = async (values: Values, formElement: HTMLFormElement) => {
    const form = new FormData();
    form.set("couple_name", values.couple_name.trim());
    for (const type of values.coupleTypes) form.append("coupleTypes[]", type);
    form.set("bio", values.bio.trim());
    const photos: PhotoPart[] = [
      ...(values.coupleProfileImage
        ? [{ field: "coupleProfileImage", fileName: "couple.jpg", photo: values.coupleProfileImage, stagedAs: "couple-main" as const }]
        : []),
      ...values.couplePhotos.map((photo, index) => ({
        field: "couplePhotos",
        fileName: `photo-${index + 1}.jpg`,
        photo,
        stagedAs: "couple-photo" as const,
      })),
    ];
    await submit({
      formElement,
      form,
      photos,
      fieldOf: (field) => (isField(field) ? field : undefined),
      onSaved: () => onSaved(),
    });
  };

  const label = phase === "compressing" ? "Optimizing photos..." : phase === "uploading" ? "Completing Setup..." : "Complete Profile!";
  return (
    <StepFormFrame
      handleSubmit={handleSubmit}
      error={formError}
      phase={phase}
      progress={progress}
      onValid={onValid}
      progressLabels={{ compressing: "Optimizing photos", uploading: "Saving your couple profile" }}
      actions={
        <div className={styles.actions}>
          <button type="button" className="button button-secondary" onClick={onBack} disabled={busy}>
            ← Back to Individual Profile
          </button>
          <button type="submit" className="button button-primary" disabled={busy}>
            {label}
          </button>
        </div>
      }
    >
      <div data-field="couple_name">
        <Field
          label="What should we call you two?"
          maxLength={COUPLE_NAME_MAX}
          readOnly={busy}
          error={errors.couple_name?.message}
          {...register("couple_name")}
        />
      </div>
      <div data-field="coupleProfileImage">
        <Controller
          control={control}
          name="coupleProfileImage"
          render={({ field }) => (
            <PhotoPicker
              label="Main couple photo"
              kind="couple-main"
              value={field.value}
              onChange={field.onChange}
              error={errors.coupleProfileImage?.message}
              disabled={busy}
            />
          )}
        />
      </div>
      <div data-field="couplePhotos">
        <Controller
          control={control}
          name="couplePhotos"
          render={({ field }) => (
            <PhotoGallery
              label="More couple photos (optional)"
              value={field.value}
              onChange={field.onChange}
              error={errors.couplePhotos?.message}
              disabled={busy}
            />
          )}
        />
      </div>
      <div data-field="coupleTypes">
        <Controller
          control={control}
          name="coupleTypes"
          render={({ field }) => (
            <StylesPicker value={field.value} onChange={field.onChange} error={errors.coupleTypes?.message} disabled={busy} />
          )}
        />
      </div>
      <div data-field="bio">
        <Controller
          control={control}
          name="bio"
          render={({ field }) => (
            <BioField value={field.value} onChange={field.onChange} onBlur={field.onBlur} error={errors.bio?.message} disabled={busy} />
          )}
        />
      </div>
    </StepFormFrame>
  );
}
