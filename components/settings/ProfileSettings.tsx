"use client";

import { useState } from "react";
import { PhotoPicker } from "@/components/photos/PhotoPicker";
import { ChipPicker } from "@/components/ui/ChipPicker";
import { Field } from "@/components/ui/Field";
import { NAME_MAX } from "@/lib/auth/rules";
import type { PickedPhoto } from "@/lib/images/client/photo";
import type { InterestsByCategory } from "@/lib/interests/catalogue";
import { INTERESTS_MAX, INTERESTS_MIN } from "@/lib/interests/rules";
import { OCCUPATION_MAX } from "@/lib/profile/rules";
import type { ProfileSettings as Saved } from "@/lib/settings/queries";
import { loadChecks } from "./loadChecks";
import { StatusLine } from "./StatusLine";
import { firstMessages, useSettingsForm } from "./useSettingsForm";
import photoStyles from "@/components/photos/PhotoField.module.css";
import styles from "./settings.module.css";

/** 'Your profile': names, occupation, interests and the profile photo (the onboarding crop and compression), saved together. */
export function ProfileSettings({ initial, categories }: { initial: Saved; categories: InterestsByCategory }) {
  const [firstName, setFirstName] = useState(initial.firstName);
  const [lastName, setLastName] = useState(initial.lastName);
  const [occupation, setOccupation] = useState(initial.occupation);
  const [interests, setInterests] = useState(initial.interests);
  const [avatarUrl, setAvatarUrl] = useState(initial.avatarUrl);
  const [photo, setPhoto] = useState<PickedPhoto | null>(null);
  const { busy, errors, status, save } = useSettingsForm("/api/settings/profile");

  const submit = async () => {
    const values = { firstName, lastName, occupation, interests };
    const parsed = (await loadChecks(() => import("@/lib/profile/schemas")))?.profileUpdateSchema.safeParse(values);
    const form = new FormData();
    form.set("firstName", firstName.trim());
    form.set("lastName", lastName.trim());
    form.set("occupation", occupation.trim());
    for (const interest of interests) form.append("interests[]", interest);
    void save(
      !parsed || parsed.success ? {} : firstMessages(parsed.error.issues),
      form,
      photo ? [{ field: "avatar", fileName: "avatar.jpg", photo }] : [],
      (json) => {
        const saved = (json as { data?: { userAvatarUrl?: string | null } }).data;
        if (saved && saved.userAvatarUrl !== undefined) setAvatarUrl(saved.userAvatarUrl);
        setPhoto(null);
      },
    );
  };

  return (
    <form
      className={styles.section}
      aria-labelledby="profile-form-title"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h2 id="profile-form-title">About you</h2>
      <div className="field-row">
        <Field
          label="First name"
          name="firstName"
          autoComplete="given-name"
          maxLength={NAME_MAX}
          value={firstName}
          onChange={(e) => setFirstName(e.target.value)}
          error={errors.firstName}
          readOnly={busy}
        />
        <Field
          label="Last name"
          name="lastName"
          autoComplete="family-name"
          maxLength={NAME_MAX}
          value={lastName}
          onChange={(e) => setLastName(e.target.value)}
          error={errors.lastName}
          readOnly={busy}
        />
      </div>
      <p className="field-hint">Other couples see your first name only; your last name stays between you and your partner.</p>
      <Field
        label="Occupation"
        name="occupation"
        autoComplete="organization-title"
        maxLength={OCCUPATION_MAX}
        value={occupation}
        onChange={(e) => setOccupation(e.target.value)}
        error={errors.occupation}
        readOnly={busy}
      />
      {avatarUrl && !photo && (
        <div className={photoStyles.saved}>
          {/* eslint-disable-next-line @next/next/no-img-element -- the stored avatar, already at its final size */}
          <img src={avatarUrl} width={400} height={400} alt="Your current profile photo" className={photoStyles.savedImage} />
          <p className="field-hint">Your current profile photo. Upload a new one to replace it.</p>
        </div>
      )}
      <PhotoPicker
        label="Profile photo"
        kind="avatar"
        value={photo}
        onChange={setPhoto}
        error={errors.avatar ?? errors.avatarUrl}
        disabled={busy}
      />
      <ChipPicker
        kind="interest"
        legend="Interests"
        name="interests"
        hint={`Select ${INTERESTS_MIN}-${INTERESTS_MAX} interests`}
        count={`${interests.length} of ${Object.values(categories).flat().length} interests selected`}
        max={INTERESTS_MAX}
        categories={categories}
        value={interests}
        onChange={setInterests}
        error={errors.interests}
        disabled={busy}
      />
      <div className={styles.actions}>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? "Saving..." : "Save profile"}
        </button>
      </div>
      <StatusLine status={status} />
    </form>
  );
}
