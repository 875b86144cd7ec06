"use client";

import { useRef } from "react";
import { useWatch } from "react-hook-form";
import { useZodForm } from "@/components/forms/useZodForm";
import { BioField } from "@/components/profile/BioField";
import { SaveProgress } from "@/components/photos/SaveProgress";
import { PhotoGallery } from "@/components/photos/PhotoGallery";
import { PhotoPicker } from "@/components/photos/PhotoPicker";
import { usePhotoField } from "@/components/photos/usePhotoField";
import { StylesPicker } from "@/components/profile/ProfileChoices";
import { Field } from "@/components/ui/Field";
import { COUPLE_MESSAGES, COUPLE_NAME_MAX, EXTRA_PHOTOS_MAX } from "@/lib/couples/rules";
import type { PickedPhoto } from "@/lib/images/client/photo";
import type { CoupleSettings as Saved } from "@/lib/settings/queries";
import { StatusLine } from "./StatusLine";
import { useSettingsSave } from "./useSettingsSave";
import photoStyles from "@/components/photos/PhotoField.module.css";
import styles from "./settings.module.css";

type Values = {
  coupleName: string;
  bio: string;
  coupleTypes: string[];
  profileImageUrl: string | null;
  profileImage: PickedPhoto | null;
  photos: string[];
  newPhotos: PickedPhoto[];
};

const loadSchema = () => import("@/lib/settings/form-schemas").then((schemas) => schemas.coupleFormSchema<Values>());

/** 'Couple profile' (either partner): name, bio, adventure styles, main photo and up to five more, with the onboarding rules and messages. */
export function CoupleSettings({ initial }: { initial: Saved }) {
  const { register, control, handleSubmit, setServerErrors, setValue, reset, formState } = useZodForm(
    loadSchema,
    {
      coupleName: initial.coupleName,
      bio: initial.bio,
      coupleTypes: initial.coupleTypes,
      profileImageUrl: initial.profileImageUrl,
      profileImage: null,
      photos: initial.photos,
      newPhotos: [],
    },
    "on-submit",
  );
  // Only what was changed here since the page loaded or saved (the form's defaults) is sent: the
  // partner (or another tab) may have saved the rest since, and this page's older copy would put it
  // back, or be refused for photos no longer the couple's.
  const changed = (values: Values, name: "coupleName" | "bio" | "coupleTypes") =>
    JSON.stringify(values[name]) !== JSON.stringify(formState.defaultValues?.[name]);
  // The photos as changes (removed here; new ones below), never the list this page holds: the
  // partner may have added one since, which that list would drop.
  const removedPhotos = (values: Values) =>
    (formState.defaultValues?.photos ?? []).filter((url): url is string => url !== undefined && !values.photos.includes(url));
  const { errors, isSubmitting: busy } = formState;
  const [bio, coupleTypes, mainUrl, mainPhoto, kept, newPhotos] = useWatch({
    control,
    name: ["bio", "coupleTypes", "profileImageUrl", "profileImage", "photos", "newPhotos"],
  });
  const { formRef, progress, status, save, refused, unchanged } = useSettingsSave(
    "/api/settings/couple",
    COUPLE_MESSAGES.updateFailed,
    setServerErrors,
  );
  // The remove button that had focus is gone with its photo: focus goes to the next photo's (the
  // last one's when it was the last), or, with none left, to the gallery's picker below (the form's
  // last file input), as the photo fields do (usePhotoField).
  const keptRef = useRef<HTMLUListElement>(null);
  const removedAt = useRef(0);
  const keptField = usePhotoField(kept, undefined, () => {
    const buttons = keptRef.current?.querySelectorAll("button") ?? [];
    const files = formRef.current?.querySelectorAll<HTMLInputElement>('input[type="file"]') ?? [];
    return buttons[Math.min(removedAt.current, buttons.length - 1)] ?? files[files.length - 1];
  });

  const submit = handleSubmit(async (values) => {
    const form = new FormData();
    if (changed(values, "coupleName")) form.set("coupleName", values.coupleName.trim());
    if (changed(values, "bio")) form.set("bio", values.bio.trim());
    if (changed(values, "coupleTypes")) for (const type of values.coupleTypes) form.append("coupleTypes[]", type);
    const removed = removedPhotos(values);
    if (removed.length > 0) form.set("removedPhotos", JSON.stringify(removed));
    const photos = [
      ...(values.profileImage
        ? [{ field: "profileImage", fileName: "couple.jpg", photo: values.profileImage, stagedAs: "couple-main" as const }]
        : []),
      ...values.newPhotos.map((photo, index) => ({
        field: "newPhotos",
        fileName: `photo-${index + 1}.jpg`,
        photo,
        stagedAs: "couple-photo" as const,
      })),
    ];
    if ([...form.keys()].length === 0 && photos.length === 0) return unchanged();
    await save(form, photos, (json) => {
      const saved = (json as { data?: { profileImageUrl?: string | null; photos?: string[] } }).data;
      reset({
        ...values,
        profileImageUrl: saved?.profileImageUrl !== undefined ? saved.profileImageUrl : values.profileImageUrl,
        photos: saved?.photos ?? values.photos,
        profileImage: null,
        newPhotos: [],
      });
    });
  }, refused);

  return (
    <form ref={formRef} className={styles.section} aria-labelledby="couple-form-title" noValidate onSubmit={submit}>
      <h2 id="couple-form-title">Your couple</h2>
      <p className="field-hint">Either of you can change your couple profile; your partner sees the changes too.</p>
      <Field
        label="What should we call you two?"
        maxLength={COUPLE_NAME_MAX}
        error={errors.coupleName?.message}
        readOnly={busy}
        {...register("coupleName")}
      />
      <div data-field="profileImage">
        <PhotoPicker
          saved={{ url: mainUrl, alt: "Your current main couple photo", hint: "Your current main photo. Upload a new one to replace it." }}
          label="Main couple photo"
          kind="couple-main"
          value={mainPhoto}
          onChange={(picked) => setValue("profileImage", picked)}
          error={errors.profileImage?.message ?? errors.profileImageUrl?.message}
          disabled={busy}
        />
      </div>
      {kept.length > 0 && (
        <div className="field" role="group" aria-labelledby="kept-photos-label">
          <span id="kept-photos-label" className={photoStyles.label}>
            Your couple photos
          </span>
          <ul ref={keptRef} className={photoStyles.gallery}>
            {kept.map((url, index) => (
              <li key={url} className={photoStyles.galleryItem}>
                {/* eslint-disable-next-line @next/next/no-img-element -- a stored photo, already at its final size */}
                <img src={url} alt={`Couple photo ${index + 1}`} width={600} height={450} className={photoStyles.galleryImage} />
                <button
                  type="button"
                  className={`button button-secondary ${photoStyles.remove}`}
                  aria-label={`Remove couple photo ${index + 1}`}
                  disabled={busy}
                  onClick={() => {
                    removedAt.current = index;
                    keptField.armFocus();
                    setValue(
                      "photos",
                      kept.filter((other) => other !== url),
                    );
                  }}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
          <p className="field-hint">A removed photo is deleted when you save.</p>
        </div>
      )}
      {/* The server names the photos' count 'photos', a refused new one 'newPhotos': both are this gallery's. */}
      <div data-field="photos">
        <div data-field="newPhotos">
          <PhotoGallery
            label={kept.length > 0 ? "Add couple photos" : "More couple photos (optional)"}
            value={newPhotos}
            onChange={(picked) => setValue("newPhotos", picked)}
            kept={kept.length}
            error={errors.photos?.message ?? errors.newPhotos?.message}
            disabled={busy || kept.length >= EXTRA_PHOTOS_MAX}
          />
        </div>
      </div>
      <div data-field="coupleTypes">
        <StylesPicker
          value={coupleTypes}
          onChange={(chosen) => setValue("coupleTypes", chosen)}
          error={errors.coupleTypes?.message}
          disabled={busy}
        />
      </div>
      <div data-field="bio">
        <BioField value={bio} onChange={(text) => setValue("bio", text)} error={errors.bio?.message} disabled={busy} />
      </div>
      {progress && (
        <SaveProgress
          phase={progress.phase}
          progress={progress.fraction}
          labels={{ compressing: "Optimizing photos", uploading: "Saving your couple profile" }}
        />
      )}
      <div className={styles.actions}>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? "Saving..." : "Save couple profile"}
        </button>
      </div>
      <StatusLine status={status} />
    </form>
  );
}
