import { describe, expect, it } from "vitest";
import { coupleCard, type CardRow } from "@/lib/couples/card";

const row = (overrides: Partial<CardRow> = {}): CardRow => ({
  id: "3f1c2a9e-5b7d-4e21-9a0b-6c8d7e5f4a3b",
  coupleName: "Marisol & Thaddeus",
  profileImageUrl: "/api/images/couple-photo/1.jpg",
  coupleTypes: ["global_adventurers", "retired_style"],
  status: "active",
  partnerAVerified: true,
  partnerBVerified: true,
  photoVerifiedPartners: 0,
  place: {
    id: "p1",
    displayLocation: "Rua Augusta 24, Lisbon",
    city: "Lisbon",
    state: "Lisbon",
    country: "Portugal",
    privacyLevel: "city",
  },
  ...overrides,
});

describe("coupleCard", () => {
  it("names the couple by coupleId and shows its place at its privacy level, never the chosen address", () => {
    expect(coupleCard(row(), { state: "none" })).toEqual({
      coupleId: "3f1c2a9e-5b7d-4e21-9a0b-6c8d7e5f4a3b",
      coupleName: "Marisol & Thaddeus",
      profileImageUrl: "/api/images/couple-photo/1.jpg",
      badge: "Verified Couple",
      photoBadge: null,
      location: "Lisbon, Portugal",
      coupleTypes: [
        { value: "global_adventurers", label: "Global Adventurers" },
        { value: "retired_style", label: "retired_style" },
      ],
      connection: { state: "none" },
    });
  });

  it("shows no place when it is hidden or missing (a left join's row of nulls included)", () => {
    expect(coupleCard(row({ place: { ...row().place!, privacyLevel: "hidden" } }), { state: "none" }).location).toBeNull();
    expect(coupleCard(row({ place: null }), { state: "none" }).location).toBeNull();
    expect(coupleCard(row({ place: { ...row().place!, id: null } }), { state: "none" }).location).toBeNull();
  });
});
