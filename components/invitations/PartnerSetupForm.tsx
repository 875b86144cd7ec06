"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useState, type ChangeEvent } from "react";
import { completePartnerSetupAction } from "@/app/(onboarding)/partner-setup/actions";
import { useZodForm } from "@/components/forms/useZodForm";
import { DateOfBirthField } from "@/components/auth/DateOfBirthField";
import { Alert } from "@/components/ui/Alert";
import { Field } from "@/components/ui/Field";
import { markRegistrationComplete } from "@/lib/registration/client-storage";
import { MESSAGES } from "@/lib/invitations/rules";
import type { PartnerSetupForm as Values } from "@/lib/invitations/schemas";
import { shrinkPhoto } from "@/lib/invitations/shrink-photo";
import { ACCEPT_ATTRIBUTE } from "@/lib/images/rules";
import { imageProblem } from "@/lib/images/client/photo";
import styles from "./PartnerSetupForm.module.css";
import { reach } from "@/lib/transport/actions";

type Photo = { blob: Blob; preview: string };

/**
 * Partner B's details; the photo is shrunk in the browser (400 px, quality 0.9) before it is
 * sent. Success goes where the account now belongs: the dashboard once the profile is complete
 * (occupation given), else onboarding's step 1.
 */
const loadSchema = () => import("@/lib/invitations/schemas").then((schemas) => schemas.partnerSetupSchema);

export function PartnerSetupForm({ defaults }: { defaults: Values }) {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const [photo, setPhoto] = useState<Photo | null>(null);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const [processing, setProcessing] = useState(false);
  const [done, setDone] = useState(false);
  // Field's props take no ref: the file input is found by its id.
  const photoInputId = useId();
  const {
    register,
    handleSubmit,
    setServerErrors,
    formState: { errors, isSubmitting },
  } = useZodForm(loadSchema, defaults);

  // The preview's object URL is released when replaced or when the form goes.
  useEffect(() => () => (photo ? URL.revokeObjectURL(photo.preview) : undefined), [photo]);

  const pickPhoto = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setPhotoError(null);
    if (!file) return;
    const problem = imageProblem(file);
    if (problem) {
      setPhotoError(problem);
      event.target.value = "";
      return;
    }
    setProcessing(true);
    try {
      const blob = await shrinkPhoto(file);
      setPhoto({ blob, preview: URL.createObjectURL(blob) });
    } catch {
      setPhotoError(MESSAGES.photoFailed);
      event.target.value = "";
    } finally {
      setProcessing(false);
    }
  };

  const onValid = async (values: Values) => {
    setFormError(null);
    const form = new FormData();
    for (const [name, value] of Object.entries(values)) form.set(name, typeof value === "string" ? value : "");
    if (photo) form.set("photo", photo.blob, "photo.jpg");
    const result = await reach(() => completePartnerSetupAction(form), MESSAGES.setupFailed);
    if (!result.ok) {
      const fields = result.fieldErrors ?? {};
      if (fields.photo) setPhotoError(fields.photo);
      setServerErrors(fields, (field) => (field === "photo" ? null : field));
      setFormError(result.message);
      return;
    }
    setDone(true);
    markRegistrationComplete();
    router.push(result.destination);
  };

  /** The file input lets go of the file too, and the keyboard lands where the removed button was. */
  const removePhoto = () => {
    setPhoto(null);
    const input = document.getElementById(photoInputId);
    if (input instanceof HTMLInputElement) {
      input.value = "";
      input.focus();
    }
  };

  const busy = isSubmitting || done;
  return (
    <form noValidate onSubmit={handleSubmit(onValid)} className={styles.form}>
      {formError && <Alert tone="error">{formError}</Alert>}
      <div className="field-row">
        <Field label="First Name" autoComplete="given-name" error={errors.firstName?.message} {...register("firstName")} />
        <Field label="Last Name" autoComplete="family-name" error={errors.lastName?.message} {...register("lastName")} />
      </div>
      <DateOfBirthField label="Date of Birth" error={errors.dateOfBirth?.message} {...register("dateOfBirth")} />
      <Field
        label="Profile Photo (optional)"
        type="file"
        accept={ACCEPT_ATTRIBUTE}
        error={photoError ?? undefined}
        hint="JPEG, PNG or WebP."
        id={photoInputId}
        onChange={(event) => void pickPhoto(event)}
      />
      <p className={styles.photoStatus} role="status">
        {processing ? "Optimizing photo..." : ""}
      </p>
      {photo && (
        <div className={`field ${styles.photoChosen}`}>
          {/* eslint-disable-next-line @next/next/no-img-element -- a local object URL, not an optimisable asset */}
          <img src={photo.preview} alt="Your profile photo preview" className={styles.photoPreview} />
          <button type="button" className="button button-secondary" onClick={removePhoto}>
            Remove photo
          </button>
        </div>
      )}
      <Field
        label="Occupation (optional)"
        autoComplete="organization-title"
        error={errors.occupation?.message}
        {...register("occupation")}
      />
      <button type="submit" className="button button-primary button-block" disabled={busy || processing}>
        {busy ? "Completing Setup..." : "Complete Setup"}
      </button>
    </form>
  );
}
