import type { PlanFormValues } from "./schemas";
import type { PlanView } from "./view";

/** The plan's place as the plan form holds it: chosen from the search (its id), or typed by hand with its zone. */
export const whereOf = (plan: PlanView) =>
  plan.place.placeId
    ? { placeId: plan.place.placeId, placeName: "", timeZone: "" }
    : { placeId: "", placeName: plan.place.name, timeZone: plan.timeZone };

/** 'Plan again': the last plan's what and where as a start, the time left to choose. */
export const againFrom = (plan: PlanView): Partial<PlanFormValues> => ({
  title: plan.title,
  ...whereOf(plan),
  venue: plan.venue ?? "",
});
