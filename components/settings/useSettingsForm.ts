"use client";

import { useRef, useState } from "react";
import type { PickedPhoto } from "@/lib/images/client/photo";
import type { PhotoPart, SendPhase } from "@/lib/images/client/send-photos";
import { saveSettingsForm } from "@/lib/settings/client/save";

export type Status = { tone: "success" | "error"; text: string } | null;

/** First message per field of a failed zod parse (the schemas list fields in check order). */
export function firstMessages(issues: readonly { path: PropertyKey[]; message: string }[]): Record<string, string> {
  const found: Record<string, string> = {};
  for (const issue of issues) found[String(issue.path[0] ?? "_")] ??= issue.message;
  return found;
}

/** A settings section's save: busy, the progress of its photos, the fields' messages, and one status line. */
export function useSettingsForm(url: string) {
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<{ phase: SendPhase; fraction: number } | null>(null);
  const uploaded = useRef(new WeakMap<PickedPhoto, string>());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<Status>(null);

  /** Local checks first (`problems`), then the server; `onSaved` gets the answer's JSON. */
  async function save(problems: Record<string, string>, form: FormData, photos: PhotoPart[], onSaved: (json: unknown) => void) {
    setStatus(null);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return setStatus({ tone: "error", text: "Please correct the fields marked below." });
    setBusy(true);
    const result = await saveSettingsForm(url, form, photos, {
      uploaded: uploaded.current,
      // A save of text alone is one small request: no progress to show.
      ...(photos.length > 0 ? { onProgress: (phase: SendPhase, fraction: number) => setProgress({ phase, fraction }) } : {}),
    });
    setBusy(false);
    setProgress(null);
    if (!result.ok) {
      setErrors(result.fields);
      return setStatus({ tone: "error", text: result.message });
    }
    onSaved(result.json);
    setStatus({ tone: "success", text: "Saved." });
  }

  return { busy, progress, errors, status, save };
}
