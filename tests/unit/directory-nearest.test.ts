import { describe, expect, it } from "vitest";
import { chordOf, kmOfChord, unitVector } from "@/lib/directory/nearest";
import { haversineKm } from "@/lib/locations/bands";

const LISBON = { lat: 38.72, lng: -9.14 };

/** The chord between two points on the unit sphere, as the SQL's cube `<->` measures it. */
function chord(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const [x, y] = [unitVector(a), unitVector(b)];
  return Math.hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]);
}

describe("the nearest sort's chord", () => {
  it.each([
    [{ lat: 38.8, lng: -9.38 }],
    [{ lat: 41.15, lng: -8.61 }],
    [{ lat: 48.86, lng: 2.35 }],
    [{ lat: -33.87, lng: 151.21 }],
    [{ lat: 38.72, lng: -9.14 }],
  ])("gives the haversine's km between the shown points (%o)", (point) => {
    expect(kmOfChord(chord(LISBON, point))).toBeCloseTo(haversineKm(LISBON, point), 6);
  });

  it("turns a radius into the chord bound and back", () => {
    for (const km of [10, 50, 200, 20_000]) expect(kmOfChord(chordOf(km))).toBeCloseTo(km, 6);
    expect(chordOf(30_000)).toBe(2);
  });

  it("orders as the distance does", () => {
    const points = [
      { lat: 38.8, lng: -9.38 },
      { lat: 41.15, lng: -8.61 },
      { lat: 48.86, lng: 2.35 },
      { lat: 40.42, lng: -3.7 },
    ];
    const byChord = [...points].sort((a, b) => chord(LISBON, a) - chord(LISBON, b));
    const byKm = [...points].sort((a, b) => haversineKm(LISBON, a) - haversineKm(LISBON, b));
    expect(byChord).toEqual(byKm);
  });
});
