import { describe, expect, it } from "vitest";
import { dateAtPlace, placeLine, timeForViewer } from "@/lib/plans/format";
import { goingLine } from "@/lib/plans/rules";
import { upcomingPlan, type PlanView } from "@/lib/plans/view";

const plan: PlanView = {
  id: "p1",
  conversationId: "c1",
  title: "Dinner",
  startsAt: "2026-12-14T19:30:00.000Z",
  endsAt: null,
  timeZone: "Europe/Lisbon",
  place: { placeId: "lisbon", name: "Lisbon", city: "Lisbon", country: "Portugal" },
  venue: "Time Out Market",
  note: "A long note the list never shows",
  answers: [
    { userId: "u1", firstName: "Ana", answer: "going" },
    { userId: "u2", firstName: "Rui", answer: "maybe" },
    { userId: "u3", firstName: "Marisol", answer: null },
  ],
  confirmed: false,
  proposedBy: { userId: "u1", firstName: "Ana" },
  proposerCoupleId: "k1",
  cancelledAt: null,
  cancelReason: null,
  sequence: 2,
  sharing: true,
  yourFeedback: null,
  metOn: null,
};

describe("a plan as the 'Upcoming' list is handed it", () => {
  // The list's props are sent in the page's flight data: only what its line reads.
  it("keeps only what the list's line reads", () => {
    expect(upcomingPlan(plan)).toEqual({
      id: "p1",
      conversationId: "c1",
      title: "Dinner",
      startsAt: "2026-12-14T19:30:00.000Z",
      timeZone: "Europe/Lisbon",
      venue: "Time Out Market",
      confirmed: false,
      place: { name: "Lisbon", city: "Lisbon" },
      answers: [{ answer: "going" }, { answer: "maybe" }, { answer: null }],
    });
  });

  it("says the same line as the whole plan", () => {
    const cut = upcomingPlan(plan);
    expect(dateAtPlace(cut.startsAt, cut.timeZone)).toBe(dateAtPlace(plan.startsAt, plan.timeZone));
    expect(timeForViewer(cut, "America/New_York")).toBe(timeForViewer(plan, "America/New_York"));
    expect(placeLine(cut)).toBe("Time Out Market, Lisbon");
    expect(goingLine(cut.answers)).toBe("1 of 3 going");
  });
});
