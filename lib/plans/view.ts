/**
 * A plan as the browser holds it: the API's answer (lib/plans/queries.ts PlanItem), as a type the
 * client may import without the server's code, and the smaller shape the 'Upcoming' list is handed.
 */
import type { AnswerRow, FeedbackAnswer } from "./rules";

export type PlanView = {
  id: string;
  conversationId: string;
  title: string;
  startsAt: string;
  endsAt: string | null;
  timeZone: string;
  place: { placeId: string | null; name: string; city: string | null; country: string | null };
  venue: string | null;
  note: string | null;
  answers: AnswerRow[];
  confirmed: boolean;
  proposedBy: { userId: string; firstName: string } | null;
  proposerCoupleId: string | null;
  cancelledAt: string | null;
  cancelReason: string | null;
  sequence: number;
  /** A shared link of the viewer's couple works ('Share with a friend'; its address is shown only when made). */
  sharing: boolean;
  /** The viewer's own 'How was it?' answer (never anyone else's). */
  yourFeedback: FeedbackAnswer | null;
  /** The plan's date at the place ('2026-12-14') once both couples said 'Great': 'You met on 14 Dec'. */
  metOn: string | null;
};

/**
 * A plan as the 'Upcoming' list shows it (components/plans/UpcomingPlans): the parts of its one
 * line. The pages hand the list these rather than whole PlanViews, as a client component's props
 * are sent in the page's flight data; the list's live refresh reads whole ones, which fit too.
 */
export type UpcomingPlan = Pick<PlanView, "id" | "conversationId" | "title" | "startsAt" | "timeZone" | "venue" | "confirmed"> & {
  place: Pick<PlanView["place"], "name" | "city">;
  answers: Pick<AnswerRow, "answer">[];
};

/** A PlanView cut to an UpcomingPlan: the other fields left out, not only untyped. */
export function upcomingPlan({ id, conversationId, title, startsAt, timeZone, venue, confirmed, place, answers }: PlanView): UpcomingPlan {
  return {
    id,
    conversationId,
    title,
    startsAt,
    timeZone,
    venue,
    confirmed,
    place: { name: place.name, city: place.city },
    answers: answers.map(({ answer }) => ({ answer })),
  };
}
