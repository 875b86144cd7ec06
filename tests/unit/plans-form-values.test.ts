import { describe, expect, it } from "vitest";
import { againFrom, whereOf } from "@/lib/plans/form-values";
import type { PlanView } from "@/lib/plans/view";

const planAt = (place: PlanView["place"], venue: string | null = "Time Out Market") =>
  ({ title: "Dinner and a walk", timeZone: "Europe/Lisbon", place, venue }) as PlanView;

describe("the plan form's values from a plan", () => {
  it("holds a place from the search by its id, and a place typed by hand by its name and zone", () => {
    expect(whereOf(planAt({ placeId: "lisbon", name: "Lisbon", city: "Lisbon", country: "Portugal" }))).toEqual({
      placeId: "lisbon",
      placeName: "",
      timeZone: "",
    });
    expect(whereOf(planAt({ placeId: null, name: "Grandma's garden", city: null, country: null }))).toEqual({
      placeId: "",
      placeName: "Grandma's garden",
      timeZone: "Europe/Lisbon",
    });
  });

  it("'Plan again' starts from the last plan's what and where, the time left to choose", () => {
    const again = againFrom(planAt({ placeId: "lisbon", name: "Lisbon", city: "Lisbon", country: "Portugal" }, null));
    expect(again).toEqual({ title: "Dinner and a walk", placeId: "lisbon", placeName: "", timeZone: "", venue: "" });
    expect(again).not.toHaveProperty("date");
    expect(again).not.toHaveProperty("time");
  });
});
