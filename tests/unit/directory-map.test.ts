import { describe, expect, it } from "vitest";
import { geoMercator } from "d3-geo";
import { boundsOf, clusterIndex, frameBox, openingArea, zoomOfScale } from "@/lib/directory/map";

const at = (coupleId: string, lat: number, lng: number) => ({ coupleId, point: { lat, lng } });

describe("the directory map's clusters", () => {
  const couples = [at("lisbon-1", 38.72, -9.14), at("lisbon-2", 38.72, -9.14), at("sintra", 38.8, -9.38), at("paris", 48.86, 2.35)];
  const index = clusterIndex(couples);
  const world: [number, number, number, number] = [-180, -85, 180, 85];

  it("merges couples that overlap at the zoom shown, and parts them closer in", () => {
    const far = index.marks(world, 3);
    expect(far).toHaveLength(2);
    const lisbon = far.find((mark) => mark.kind === "cluster")!;
    expect(lisbon).toMatchObject({ kind: "cluster", count: 3 });
    if (lisbon.kind !== "cluster") throw new Error("a cluster");
    expect(lisbon.leaves.map((leaf) => leaf.coupleId).sort()).toEqual(["lisbon-1", "lisbon-2", "sintra"]);
    expect(far.find((mark) => mark.kind === "couple")).toMatchObject({ id: "paris", lat: 48.86, lng: 2.35 });
    // At street level Sintra stands alone; the two Lisbon couples share one snapped point and never part.
    const near = index.marks(world, 12);
    expect(
      near
        .filter((mark) => mark.kind === "couple")
        .map((mark) => mark.id)
        .sort(),
    ).toEqual(["paris", "sintra"]);
    expect(near.find((mark) => mark.kind === "cluster")).toMatchObject({ count: 2 });
  });

  it("fits a box around the points, never smaller than the span asked for", () => {
    expect(boundsOf([])).toBeNull();
    const [west, south, east, north] = boundsOf([{ lat: 38.72, lng: -9.14 }])!;
    expect(east - west).toBeCloseTo(1);
    expect(north - south).toBeCloseTo(1);
    const wide = boundsOf(couples.map((couple) => couple.point))!;
    expect(wide[0]).toBeLessThan(-9.38);
    expect(wide[2]).toBeGreaterThan(2.35);
    expect(wide[3]).toBeGreaterThan(48.86);
  });

  it("reads a Mercator scale as the web map's zoom", () => {
    expect(zoomOfScale(256 / (2 * Math.PI))).toBeCloseTo(0);
    expect(zoomOfScale((256 * 1024) / (2 * Math.PI))).toBeCloseTo(10);
  });
});

describe("the map's opening area", () => {
  const at = (coupleId: string, lat: number, lng: number) => ({ coupleId, point: { lat, lng } });
  const lisbon = { lat: 38.72, lng: -9.14 };

  it("is none without a place of one's own: the map opens on all the couples", () => {
    expect(openingArea(null, [at("a", 38.8, -9.38)])).toBeNull();
  });

  it("holds the viewer's place and every couple within 100 km, not the far ones beyond the nearest three", () => {
    const couples = [
      at("sintra", 38.8, -9.38),
      at("setubal", 38.52, -8.89),
      at("cascais", 38.7, -9.42),
      at("evora", 38.57, -7.91),
      at("paris", 48.86, 2.35),
    ];
    const [west, south, east, north] = openingArea(lisbon, couples)!;
    expect(west).toBeLessThan(-9.42);
    expect(south).toBeLessThan(38.52);
    // Évora is 108 km away, Paris 1,450: neither is in.
    expect(east).toBeGreaterThan(-8.89);
    expect(east).toBeLessThan(-7.91);
    expect(north).toBeLessThan(40);
  });

  it("reaches the nearest three when fewer are near, so the map never opens empty", () => {
    const [, , east, north] = openingArea(lisbon, [at("porto", 41.15, -8.61), at("madrid", 40.42, -3.7), at("paris", 48.86, 2.35)])!;
    expect(north).toBeGreaterThan(48.86);
    expect(east).toBeGreaterThan(2.35);
  });
});

describe("the offline map's frame", () => {
  const couples = [at("lisbon", 38.72, -9.14), at("paris", 48.86, 2.35), at("sydney", -33.87, 151.21)];
  const index = clusterIndex(couples);
  /** A phone's map (360 x 300 px) fitted to a box, as OfflineCouplesMap fits it. */
  const fitted = ([west, south, east, north]: number[]) =>
    geoMercator().fitExtent(
      [
        [24, 24],
        [336, 276],
      ],
      {
        type: "Feature",
        properties: {},
        geometry: {
          type: "MultiPoint",
          coordinates: [
            [west!, south!],
            [east!, north!],
          ],
        },
      },
    );
  const shown = (projection: ReturnType<typeof fitted>) =>
    index
      .marks(frameBox(projection, 360, 300), zoomOfScale(projection.scale()))
      .flatMap((mark) => (mark.kind === "couple" ? [mark.id] : mark.leaves.map((leaf) => leaf.coupleId)))
      .sort();

  it("holds only the marks drawn inside it: zoomed in on Lisbon, Paris and Sydney get no (unseen, focusable) mark", () => {
    expect(shown(fitted(boundsOf([{ lat: 38.72, lng: -9.14 }])!))).toEqual(["lisbon"]);
  });

  it("holds every couple when the map shows the world, and across the antimeridian the couples on both sides of it", () => {
    expect(shown(fitted([-170, -60, 170, 78]))).toEqual(["lisbon", "paris", "sydney"]);
    const pacific = clusterIndex([at("fiji", -18.14, 178.44), at("samoa", -13.83, -171.76), at("lisbon", 38.72, -9.14)]);
    // Centred on the antimeridian (the offline map never is; a projection turned to the Pacific).
    const projection = geoMercator()
      .rotate([180, 0])
      .fitExtent(
        [
          [24, 24],
          [336, 276],
        ],
        {
          type: "Feature",
          properties: {},
          geometry: {
            type: "MultiPoint",
            coordinates: [
              [170, -25],
              [-170, -5],
            ],
          },
        },
      );
    const ids = pacific.marks(frameBox(projection, 360, 300), zoomOfScale(projection.scale())).map((mark) => mark.id);
    expect(ids.sort()).toEqual(["fiji", "samoa"]);
  });

  it("ends at the world's edge where the unturned map does: a frame past the antimeridian draws nothing beyond it", () => {
    // Auckland and Fiji on a phone: the frame runs on past 180° east, where the map shows only sea;
    // Tonga, just past the antimeridian, is drawn off the frame's left edge, so it gets no mark.
    const pacific = clusterIndex([at("fiji", -18.14, 178.44), at("auckland", -36.85, 174.76), at("tonga", -21.14, -175.2)]);
    const projection = fitted(
      boundsOf([
        { lat: -18.14, lng: 178.44 },
        { lat: -36.85, lng: 174.76 },
      ])!,
    );
    const marks = pacific.marks(frameBox(projection, 360, 300), zoomOfScale(projection.scale()));
    for (const mark of marks) {
      const [x, y] = projection([mark.lng, mark.lat])!;
      expect({ id: mark.id, inside: x >= 0 && x <= 360 && y >= 0 && y <= 300 }).toEqual({ id: mark.id, inside: true });
    }
    expect(marks.flatMap((mark) => (mark.kind === "couple" ? [mark.id] : mark.leaves.map((leaf) => leaf.coupleId))).sort()).toEqual([
      "auckland",
      "fiji",
    ]);
  });
});
