"use client";

import type { Ref } from "react";
import { BODY_MAX, FORUM_TOPICS, TITLE_MAX } from "@/lib/forum/rules";
import type { ForumMention } from "@/lib/forum/client/api";
import { SelectField } from "@/components/ui/SelectField";
import { MentionTextarea } from "./MentionTextarea";

/**
 * The title, topic and body fields of a post and the mentions' helpers, shared by the composer ('New
 * Post'), the editors and the reply composer (which so load none of the composer's photo code).
 */

type FieldProps = { idPrefix: string; value: string; error?: string; disabled?: boolean; onChange(value: string): void };

export function TitleField({ idPrefix, value, error, disabled, onChange, inputRef }: FieldProps & { inputRef?: Ref<HTMLInputElement> }) {
  const id = `${idPrefix}-title`;
  return (
    <div className="field">
      <label htmlFor={id}>Title</label>
      <input
        ref={inputRef}
        id={id}
        name="title"
        value={value}
        maxLength={TITLE_MAX + 50}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-counter${error ? ` ${id}-error` : ""}`}
        onChange={(event) => onChange(event.target.value)}
      />
      <span id={`${id}-counter`} className={value.length > TITLE_MAX ? "field-hint field-count-over" : "field-hint"}>
        {value.length} / {TITLE_MAX} characters
      </span>
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** `placeholder`: a first, empty choice (the composer asks for a topic; a post being edited has one). */
export function TopicField({ idPrefix, value, error, disabled, onChange, placeholder }: FieldProps & { placeholder?: string }) {
  return (
    <SelectField
      label="Topic"
      id={`${idPrefix}-topic`}
      name="topic"
      value={value}
      disabled={disabled}
      error={error}
      onChange={(event) => onChange(event.target.value)}
      options={placeholder === undefined ? FORUM_TOPICS : [{ value: "", label: placeholder }, ...FORUM_TOPICS]}
    />
  );
}

/** A post's body with its mentions and counter. */
export function PostBodyField({
  value,
  error,
  disabled,
  onChange,
  onMention,
}: Omit<FieldProps, "idPrefix"> & { onMention(mention: ForumMention): void }) {
  return (
    <MentionTextarea
      label="Your post"
      name="body"
      value={value}
      max={BODY_MAX}
      rows={8}
      error={error}
      disabled={disabled}
      onChange={onChange}
      onMention={onMention}
    />
  );
}

/** A chosen mention replaces an earlier one of the same couple. */
export const mergeMention = (mentions: readonly ForumMention[], mention: ForumMention) => [
  ...mentions.filter((m) => m.coupleId !== mention.coupleId),
  mention,
];
