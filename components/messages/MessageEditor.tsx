"use client";

import { useId } from "react";
import { useZodForm } from "@/components/forms/useZodForm";
import { Alert } from "@/components/ui/Alert";
import { FormActions } from "@/components/ui/FormActions";
import { editMessage } from "@/lib/messages/client/api";
import type { Message } from "@/lib/messages/display";
import styles from "./MessageItem.module.css";

const loadSchema = () => import("@/lib/messages/schemas").then((m) => m.editMessageSchema);

/** Its author's words in place, within the edit window: Save shows them to all four ('edited'), Cancel leaves them. */
export function MessageEditor({ message, onSaved, onCancel }: { message: Message; onSaved(message: Message): void; onCancel(): void }) {
  const id = useId();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useZodForm(loadSchema, { body: message.body ?? "" }, "on-submit");
  const save = handleSubmit(async ({ body }) => {
    try {
      onSaved(await editMessage(message.id, body));
    } catch (failure) {
      setError("root", { message: failure instanceof Error ? failure.message : "Could not save your message" });
    }
  });
  return (
    <form className={styles.editor} onSubmit={save} aria-label="Edit message" noValidate>
      {errors.root?.message && <Alert tone="error">{errors.root.message}</Alert>}
      <label htmlFor={id} className="visually-hidden">
        Edit your message
      </label>
      <textarea
        id={id}
        rows={3}
        autoFocus
        aria-invalid={errors.body ? true : undefined}
        aria-describedby={errors.body ? `${id}-error` : undefined}
        {...register("body")}
      />
      {errors.body?.message && (
        <span id={`${id}-error`} className="field-error">
          {errors.body.message}
        </span>
      )}
      <FormActions label="Save" busyLabel="Saving..." busy={isSubmitting} onCancel={onCancel} />
    </form>
  );
}
