/**
 * A conversation's unsent words in session storage, per user and conversation (the forms' draft
 * store, lib/forms/draft-store.ts): going to another page, a notification opening another in this
 * tab, or a reload keeps them; signing out clears them. Its schema loads with the first read.
 */
import "client-only";
import { lazyDraftStore } from "@/lib/forms/draft-store";

export type MessageDraft = { body: string };

export const messageDraft = (conversationId: string) =>
  lazyDraftStore<MessageDraft>(`message:${conversationId}`, () => import("../schemas").then((m) => m.messageDraftSchema), []);
