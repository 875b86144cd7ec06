/** The browser's calls about photo verification, through the transport (lib/transport/client.ts, lib/transport/upload.ts). */
import "client-only";
import { api } from "@/lib/transport/client";
import { uploadForm } from "@/lib/transport/upload";
import type { KeysetPage } from "@/lib/pagination/page";
import type { PendingVerification } from "../queries";
import type { MyVerification } from "../rules";

/** The selfie, already cropped and compressed, in the pose asked for (`POST /api/verification/selfie`): the state, now pending. */
export async function sendSelfie(pose: string, photo: File, onProgress?: (fraction: number) => void): Promise<MyVerification> {
  const form = new FormData();
  form.set("pose", pose);
  form.set("photo", photo);
  const { data } = await uploadForm<{ data: MyVerification }>("/api/verification/selfie", form, { onProgress });
  return data;
}

/** The partner's state with a newly picked pose (`GET /api/verification`). */
export async function fetchMyVerification(): Promise<MyVerification> {
  const { data } = await api<{ data: MyVerification }>("/api/verification");
  return data;
}

/** The moderators' queue after `cursor`. */
export function pendingVerificationsPage(cursor: string): Promise<KeysetPage<PendingVerification>> {
  return api(`/api/moderation/verifications?cursor=${encodeURIComponent(cursor)}`);
}

/** A moderator approves a pending selfie, or refuses it with a reason. */
export async function decideVerification(id: string, decision: "approve" | "refuse", reason?: string): Promise<void> {
  await api(`/api/moderation/verifications/${encodeURIComponent(id)}/decision`, { method: "POST", body: { decision, reason } });
}
