/**
 * The browser's calls to the plans API through the one transport (lib/transport/client.ts), and the
 * live keys (lib/live/client/use-live.ts) that keep the cards and 'Upcoming' current.
 */
import "client-only";
import { api, ApiError } from "@/lib/transport/client";
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

/**
 * After a write, every plan list loads again (the live event follows for the others); after a
 * write refused because the plan changed since it was shown (409 PLAN_CHANGED), too, so the card
 * shows what changed.
 */
async function write<T>(request: Promise<T>): Promise<T> {
  try {
    const answer = await request;
    invalidate(PLANS_KEY);
    return answer;
  } catch (error) {
    if (error instanceof ApiError && error.code === "PLAN_CHANGED") invalidate(PLANS_KEY);
    throw error;
  }
}

const data = <T>(body: Promise<{ data: T }>) => body.then((answer) => answer.data);

export const proposePlan = (conversationId: string, input: PlanInput) =>
  write(data(api<{ data: PlanView }>(`/api/conversations/${path(conversationId)}/plans`, { method: "POST", body: input })));

/** `sequence`: the plan's as the form was opened on it (a plan changed since refuses the change). */
export const changePlan = (id: string, change: Partial<PlanInput>, sequence: number) =>
  write(data(api<{ data: PlanView }>(`/api/plans/${path(id)}`, { method: "PATCH", body: { ...change, sequence } })));

export const cancelPlan = (id: string, reason: string | null) =>
  write(data(api<{ data: PlanView }>(`/api/plans/${path(id)}`, { method: "DELETE", body: { reason } })));

/** `sequence`: the plan's as its card shows it (a plan changed since refuses the answer). */
export const answerPlan = (id: string, answer: PlanAnswer, sequence: number) =>
  write(data(api<{ data: PlanView }>(`/api/plans/${path(id)}/answer`, { method: "PUT", body: { answer, sequence } })));

/** The .ics file's address (a plain link downloads it with the session cookie). */
export const calendarFileUrl = (id: string) => `/api/plans/${path(id)}/calendar.ics`;

/** 'Share with a friend': a new read-only link (the last one stops working). */
export const sharePlan = (id: string) =>
  write(data(api<{ data: { url: string } }>(`/api/plans/${path(id)}/share`, { method: "POST" }))).then((link) => link.url);

export const stopSharing = (id: string) => write(api(`/api/plans/${path(id)}/share`, { method: "DELETE" })).then(() => undefined);

export type FeedbackAnswerResult = { answer: FeedbackAnswer; report: { targetType: "plan"; targetId: string } | null };

/** 'How was it?', privately. */
export async function giveFeedback(id: string, answer: FeedbackAnswer): Promise<FeedbackAnswerResult> {
  const { data } = await api<{ data: FeedbackAnswerResult }>(`/api/plans/${path(id)}/feedback`, { method: "PUT", body: { answer } });
  invalidate(PLANS_KEY);
  return data;
}
