"use client";

import { useState } from "react";
import type { PickedPhoto } from "@/lib/images/client/photo";
import { saveSettingsForm } from "@/lib/settings/client/save";

export type Status = { tone: "success" | "error"; text: string } | null;

/** First message per field of a failed zod parse (the schemas list fields in check order). */
export function firstMessages(issues: readonly { path: PropertyKey[]; message: string }[]): Record<string, string> {
  const found: Record<string, string> = {};
  for (const issue of issues) found[String(issue.path[0] ?? "_")] ??= issue.message;
  return found;
}

/** A settings section's save: busy, the fields' messages, and one status line. */
export function useSettingsForm(url: string) {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<Status>(null);

  /** Local checks first (`problems`), then the server; `onSaved` gets the answer's JSON. */
  async function save(
    problems: Record<string, string>,
    form: FormData,
    photos: { field: string; fileName: string; photo: PickedPhoto }[],
    onSaved: (json: unknown) => void,
  ) {
    setStatus(null);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return setStatus({ tone: "error", text: "Please correct the fields marked below." });
    setBusy(true);
    const result = await saveSettingsForm(url, form, photos);
    setBusy(false);
    if (!result.ok) {
      setErrors(result.fields);
      return setStatus({ tone: "error", text: result.message });
    }
    onSaved(result.json);
    setStatus({ tone: "success", text: "Saved." });
  }

  return { busy, errors, status, save };
}
