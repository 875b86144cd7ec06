"use client";

import { useWatch } from "react-hook-form";
import { useZodForm } from "@/components/forms/useZodForm";
import { PhotoPicker } from "@/components/photos/PhotoPicker";
import { InterestsPicker } from "@/components/profile/ProfileChoices";
import { Field } from "@/components/ui/Field";
import { NAME_MAX } from "@/lib/auth/rules";
import type { PickedPhoto } from "@/lib/images/client/photo";
import type { InterestsByCategory } from "@/lib/interests/catalogue";
import { OCCUPATION_MAX, PROFILE_MESSAGES } from "@/lib/profile/rules";
import { interestsToSend } from "@/lib/settings/changes";
import type { ProfileSettings as Saved } from "@/lib/settings/queries";
import { StatusLine } from "./StatusLine";
import { useSettingsSave } from "./useSettingsSave";
import styles from "./settings.module.css";

type Values = {
  firstName: string;
  lastName: string;
  occupation: string;
  interests: string[];
  savedInterests: string[];
  avatarUrl: string | null;
  avatar: PickedPhoto | null;
};

const loadSchema = () => import("@/lib/settings/form-schemas").then((schemas) => schemas.profileFormSchema<Values>());

/** 'Your profile': names, occupation, interests and the profile photo (the onboarding crop and compression), saved together. */
export function ProfileSettings({ initial, categories }: { initial: Saved; categories: InterestsByCategory }) {
  const {
    register,
    control,
    handleSubmit,
    setServerErrors,
    setValue,
    reset,
    formState: { errors, isSubmitting: busy },
  } = useZodForm(
    loadSchema,
    {
      firstName: initial.firstName,
      lastName: initial.lastName,
      occupation: initial.occupation,
      interests: initial.interests,
      savedInterests: initial.interests,
      avatarUrl: initial.avatarUrl,
      avatar: null,
    },
    "on-submit",
  );
  const [avatarUrl, photo, interests] = useWatch({ control, name: ["avatarUrl", "avatar", "interests"] });
  const { formRef, status, save, refused } = useSettingsSave("/api/settings/profile", PROFILE_MESSAGES.updateFailed, setServerErrors);

  const submit = handleSubmit(async (values) => {
    const form = new FormData();
    form.set("firstName", values.firstName.trim());
    form.set("lastName", values.lastName.trim());
    form.set("occupation", values.occupation.trim());
    for (const interest of interestsToSend(values) ?? []) form.append("interests[]", interest);
    await save(form, values.avatar ? [{ field: "avatar", fileName: "avatar.jpg", photo: values.avatar }] : [], (json) => {
      const saved = (json as { data?: { userAvatarUrl?: string | null } }).data;
      const newUrl = saved && saved.userAvatarUrl !== undefined ? saved.userAvatarUrl : values.avatarUrl;
      reset({ ...values, savedInterests: values.interests, avatarUrl: newUrl, avatar: null });
    });
  }, refused);

  return (
    <form ref={formRef} className={styles.section} aria-labelledby="profile-form-title" noValidate onSubmit={submit}>
      <h2 id="profile-form-title">About you</h2>
      <div className="field-row">
        <Field
          label="First name"
          autoComplete="given-name"
          maxLength={NAME_MAX}
          error={errors.firstName?.message}
          readOnly={busy}
          {...register("firstName")}
        />
        <Field
          label="Last name"
          autoComplete="family-name"
          maxLength={NAME_MAX}
          error={errors.lastName?.message}
          readOnly={busy}
          {...register("lastName")}
        />
      </div>
      <p className="field-hint">Other couples see your first name only; your last name stays between you and your partner.</p>
      <Field
        label="Occupation"
        autoComplete="organization-title"
        maxLength={OCCUPATION_MAX}
        error={errors.occupation?.message}
        readOnly={busy}
        {...register("occupation")}
      />
      <div data-field="avatar">
        <PhotoPicker
          saved={{ url: avatarUrl, alt: "Your current profile photo", hint: "Your current profile photo. Upload a new one to replace it." }}
          label="Profile photo"
          kind="avatar"
          value={photo}
          onChange={(picked) => setValue("avatar", picked)}
          error={errors.avatar?.message ?? errors.avatarUrl?.message}
          disabled={busy}
        />
      </div>
      <div data-field="interests">
        <InterestsPicker
          categories={categories}
          value={interests}
          onChange={(chosen) => setValue("interests", chosen)}
          error={errors.interests?.message}
          disabled={busy}
        />
      </div>
      <div className={styles.actions}>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? "Saving..." : "Save profile"}
        </button>
      </div>
      <StatusLine status={status} />
    </form>
  );
}
