"use client";

import { useState } from "react";
import { BioField } from "@/components/profile/BioField";
import { SaveProgress } from "@/components/photos/SaveProgress";
import { STYLE_OPTIONS } from "@/components/profile/styleOptions";
import { PhotoGallery } from "@/components/photos/PhotoGallery";
import { PhotoPicker } from "@/components/photos/PhotoPicker";
import { ChipPicker } from "@/components/ui/ChipPicker";
import { Field } from "@/components/ui/Field";
import { COUPLE_NAME_MAX, COUPLE_TYPES_MAX, EXTRA_PHOTOS_MAX } from "@/lib/couples/rules";
import type { PickedPhoto } from "@/lib/images/client/photo";
import type { CoupleSettings as Saved } from "@/lib/settings/queries";
import { loadChecks } from "./loadChecks";
import { StatusLine } from "./StatusLine";
import { useSettingsForm } from "./useSettingsForm";
import photoStyles from "@/components/photos/PhotoField.module.css";
import styles from "./settings.module.css";

/** The onboarding checks' field names, as this form (and its server call) names them. */
const FIELD_NAMES = {
  couple_name: "coupleName",
  coupleProfileImage: "profileImage",
  coupleTypes: "coupleTypes",
  bio: "bio",
  couplePhotos: "photos",
} as const;

/** 'Couple profile' (either partner): name, bio, adventure styles, main photo and up to five more, with the onboarding rules and messages. */
export function CoupleSettings({ initial }: { initial: Saved }) {
  const [coupleName, setCoupleName] = useState(initial.coupleName);
  const [bio, setBio] = useState(initial.bio);
  const [coupleTypes, setCoupleTypes] = useState(initial.coupleTypes);
  const [mainUrl, setMainUrl] = useState(initial.profileImageUrl);
  const [mainPhoto, setMainPhoto] = useState<PickedPhoto | null>(null);
  const [kept, setKept] = useState(initial.photos);
  const [newPhotos, setNewPhotos] = useState<PickedPhoto[]>([]);
  const { busy, progress, errors, status, save } = useSettingsForm("/api/settings/couple");

  const submit = async () => {
    const checks = await loadChecks(() => import("@/lib/onboarding/step-checks"));
    const found = checks?.step2Errors({
      couple_name: coupleName,
      hasMainPhoto: Boolean(mainUrl || mainPhoto),
      coupleTypes,
      bio,
      extraPhotoCount: kept.length + newPhotos.length,
    });
    const problems = Object.fromEntries(
      Object.entries(found ?? {}).map(([field, message]) => [FIELD_NAMES[field as keyof typeof FIELD_NAMES], message]),
    );
    const form = new FormData();
    form.set("coupleName", coupleName.trim());
    form.set("bio", bio.trim());
    for (const type of coupleTypes) form.append("coupleTypes[]", type);
    form.set("photos", JSON.stringify(kept));
    const photos = [
      ...(mainPhoto ? [{ field: "profileImage", fileName: "couple.jpg", photo: mainPhoto, stagedAs: "couple-main" as const }] : []),
      ...newPhotos.map((photo, index) => ({
        field: "newPhotos",
        fileName: `photo-${index + 1}.jpg`,
        photo,
        stagedAs: "couple-photo" as const,
      })),
    ];
    void save(problems, form, photos, (json) => {
      const saved = (json as { data?: { profileImageUrl?: string | null; photos?: string[] } }).data;
      if (saved?.profileImageUrl !== undefined) setMainUrl(saved.profileImageUrl);
      if (saved?.photos) setKept(saved.photos);
      setMainPhoto(null);
      setNewPhotos([]);
    });
  };

  return (
    <form
      className={styles.section}
      aria-labelledby="couple-form-title"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h2 id="couple-form-title">Your couple</h2>
      <p className="field-hint">Either of you can change your couple profile; your partner sees the changes too.</p>
      <Field
        label="What should we call you two?"
        name="coupleName"
        maxLength={COUPLE_NAME_MAX}
        value={coupleName}
        onChange={(e) => setCoupleName(e.target.value)}
        error={errors.coupleName}
        readOnly={busy}
      />
      {mainUrl && !mainPhoto && (
        <div className={photoStyles.saved}>
          {/* eslint-disable-next-line @next/next/no-img-element -- the stored photo, already at its final size */}
          <img src={mainUrl} width={400} height={400} alt="Your current main couple photo" className={photoStyles.savedImage} />
          <p className="field-hint">Your current main photo. Upload a new one to replace it.</p>
        </div>
      )}
      <PhotoPicker
        label="Main couple photo"
        kind="couple-main"
        value={mainPhoto}
        onChange={setMainPhoto}
        error={errors.profileImage ?? errors.profileImageUrl}
        disabled={busy}
      />
      {kept.length > 0 && (
        <div className="field" role="group" aria-labelledby="kept-photos-label">
          <span id="kept-photos-label" className={photoStyles.label}>
            Your couple photos
          </span>
          <ul className={photoStyles.gallery}>
            {kept.map((url, index) => (
              <li key={url} className={photoStyles.galleryItem}>
                {/* eslint-disable-next-line @next/next/no-img-element -- a stored photo, already at its final size */}
                <img src={url} alt={`Couple photo ${index + 1}`} width={600} height={450} className={photoStyles.galleryImage} />
                <button
                  type="button"
                  className={`button button-secondary ${photoStyles.remove}`}
                  aria-label={`Remove couple photo ${index + 1}`}
                  disabled={busy}
                  onClick={() => setKept((list) => list.filter((other) => other !== url))}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
          <p className="field-hint">A removed photo is deleted when you save.</p>
        </div>
      )}
      <PhotoGallery
        label={kept.length > 0 ? "Add couple photos" : "More couple photos (optional)"}
        value={newPhotos}
        onChange={setNewPhotos}
        kept={kept.length}
        error={errors.photos ?? errors.newPhotos}
        disabled={busy || kept.length >= EXTRA_PHOTOS_MAX}
      />
      <ChipPicker
        kind="style"
        legend="Adventure styles"
        name="coupleTypes"
        hint={`Choose up to ${COUPLE_TYPES_MAX} (${coupleTypes.length} selected)`}
        limitMessage={`You can select up to ${COUPLE_TYPES_MAX} adventure styles`}
        max={COUPLE_TYPES_MAX}
        options={STYLE_OPTIONS}
        value={coupleTypes}
        onChange={setCoupleTypes}
        error={errors.coupleTypes}
        disabled={busy}
      />
      <BioField value={bio} onChange={setBio} error={errors.bio} disabled={busy} />
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
