/**
 * The browser's calls to the plans API through the one transport (lib/transport/client.ts), and the
 * live keys (lib/live/client/use-live.ts) that keep the cards and 'Upcoming' current.
 */
import "client-only";
import { api } from "@/lib/transport/client";
import { invalidate } from "@/lib/live/client/use-live";
import type { FeedbackAnswer, PlanAnswer } from "../rules";
import type { PlanInput } from "../schemas";
import type { PlanView } from "../view";

/** The live keys: "plans" is every one of them. */
export const PLANS_KEY = "plans";
export const UPCOMING_PLANS_KEY = `${PLANS_KEY}:upcoming`;
export const conversationPlansKey = (conversationId: string) => `${PLANS_KEY}:conversation:${conversationId}`;

const path = (id: string) => encodeURIComponent(id);

export const fetchConversationPlans = (conversationId: string, signal?: AbortSignal) =>
  api<{ data: PlanView[] }>(`/api/conversations/${path(conversationId)}/plans`, { signal }).then((body) => body.data);

export const fetchUpcomingPlans = (signal?: AbortSignal) =>
  api<{ data: PlanView[] }>("/api/plans?upcoming=1", { signal }).then((body) => body.data);

/** After a write, every plan list loads again (the live event follows for the others). */
async function write(request: Promise<{ data: PlanView }>): Promise<PlanView> {
  const { data } = await request;
  invalidate(PLANS_KEY);
  return data;
}

export const proposePlan = (conversationId: string, input: PlanInput) =>
  write(api(`/api/conversations/${path(conversationId)}/plans`, { method: "POST", body: input }));

export const changePlan = (id: string, change: Partial<PlanInput>) =>
  write(api(`/api/plans/${path(id)}`, { method: "PATCH", body: change }));

export const cancelPlan = (id: string, reason: string | null) =>
  write(api(`/api/plans/${path(id)}`, { method: "DELETE", body: { reason } }));

export const answerPlan = (id: string, answer: PlanAnswer) =>
  write(api(`/api/plans/${path(id)}/answer`, { method: "PUT", body: { answer } }));

/** The .ics file's address (a plain link downloads it with the session cookie). */
export const calendarFileUrl = (id: string) => `/api/plans/${path(id)}/calendar.ics`;

/** 'Share with a friend': a new read-only link (the last one stops working). */
export const sharePlan = (id: string) =>
  api<{ data: { url: string } }>(`/api/plans/${path(id)}/share`, { method: "POST" }).then((body) => body.data.url);

export const stopSharing = (id: string) => api(`/api/plans/${path(id)}/share`, { method: "DELETE" }).then(() => undefined);

export type FeedbackAnswerResult = { answer: FeedbackAnswer; report: { targetType: "plan"; targetId: string } | null };

/** 'How was it?', privately. */
export async function giveFeedback(id: string, answer: FeedbackAnswer): Promise<FeedbackAnswerResult> {
  const { data } = await api<{ data: FeedbackAnswerResult }>(`/api/plans/${path(id)}/feedback`, { method: "PUT", body: { answer } });
  invalidate(PLANS_KEY);
  return data;
}
