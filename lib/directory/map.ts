/**
 * The directory's map, whichever draws it (Google's, or the offline one): couples clustered where
 * they overlap at the zoom shown (supercluster), and the box a set of points fills. Pure and
 * browser-safe; loaded only with the map.
 */
import Supercluster from "supercluster";
import { haversineKm } from "@/lib/locations/bands";

export type MapPoint = { coupleId: string; point: { lat: number; lng: number } };

/** One mark on the map: a couple, or a cluster of `count` couples that opens at `expansionZoom`. */
export type MapMark<T> =
  | { kind: "couple"; id: string; lat: number; lng: number; couple: T }
  | { kind: "cluster"; id: string; lat: number; lng: number; count: number; expansionZoom: number; leaves: T[] };

/** How close two marks may come before they merge, in pixels at the zoom shown: a 44 px target and a little room. */
export const CLUSTER_RADIUS_PX = 52;
export const MAX_ZOOM = 16;

/** An index of the couples, to ask for the marks of any box at any zoom. */
export function clusterIndex<T extends MapPoint>(couples: readonly T[]) {
  const index = new Supercluster<{ couple: T }, Record<string, never>>({ radius: CLUSTER_RADIUS_PX, maxZoom: MAX_ZOOM, extent: 256 });
  index.load(
    couples.map((couple) => ({
      type: "Feature",
      geometry: { type: "Point", coordinates: [couple.point.lng, couple.point.lat] },
      properties: { couple },
    })),
  );
  return {
    /** The marks within [west, south, east, north] at a (whole or fractional) zoom. */
    marks(box: [number, number, number, number], zoom: number): MapMark<T>[] {
      return index.getClusters(box, Math.max(0, Math.min(MAX_ZOOM, Math.floor(zoom)))).map((feature) => {
        const [lng, lat] = feature.geometry.coordinates as [number, number];
        if ("cluster" in feature.properties && feature.properties.cluster) {
          const clusterId = feature.properties.cluster_id as number;
          return {
            kind: "cluster",
            id: `cluster:${clusterId}`,
            lat,
            lng,
            count: feature.properties.point_count as number,
            expansionZoom: index.getClusterExpansionZoom(clusterId),
            leaves: index.getLeaves(clusterId, Infinity).map((leaf) => leaf.properties.couple),
          };
        }
        const { couple } = feature.properties as { couple: T };
        return { kind: "couple", id: couple.coupleId, lat: couple.point.lat, lng: couple.point.lng, couple };
      });
    },
  };
}

/** The [west, south, east, north] box the points fill, at least `minSpan` degrees each way (one couple still shows its surroundings). */
export function boundsOf(points: readonly { lat: number; lng: number }[], minSpan = 1): [number, number, number, number] | null {
  if (points.length === 0) return null;
  let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const { lat, lng } of points) {
    west = Math.min(west, lng);
    east = Math.max(east, lng);
    south = Math.min(south, lat);
    north = Math.max(north, lat);
  }
  const widen = (low: number, high: number, limit: number): [number, number] => {
    const pad = Math.max(minSpan - (high - low), 0) / 2 + (high - low) * 0.08;
    return [Math.max(-limit, low - pad), Math.min(limit, high + pad)];
  };
  [west, east] = widen(west, east, 180);
  [south, north] = widen(south, north, 85);
  return [west, south, east, north];
}

/** The web-map zoom at which a Mercator projection of this scale (d3's, radians to pixels) draws the world: 256 · 2^zoom pixels round. */
export const zoomOfScale = (scale: number) => Math.log2((2 * Math.PI * scale) / 256);

/** The map opens on the viewer's area: their place and the couples within this many km of it... */
export const OPENING_AREA_KM = 100;
/** ...and at least this many of the nearest, wherever they are. */
export const OPENING_AREA_MIN = 3;

/**
 * The box the map opens on for a viewer at `centre` (null without a place of their own: the map
 * opens on all the couples): the centre and the couples near it, so nearby couples show apart
 * instead of one bubble over a continent.
 */
export function openingArea(
  centre: { lat: number; lng: number } | null,
  couples: readonly MapPoint[],
): [number, number, number, number] | null {
  if (!centre) return null;
  const byDistance = couples.map((couple) => ({ point: couple.point, km: haversineKm(centre, couple.point) })).sort((a, b) => a.km - b.km);
  const near = byDistance.filter((couple, index) => couple.km <= OPENING_AREA_KM || index < OPENING_AREA_MIN);
  return boundsOf([centre, ...near.map((couple) => couple.point)]);
}

/** A Mercator projection as d3-geo's: pixels back to [lng, lat], its scale (radians to pixels) and its turn (degrees east). */
type FrameProjection = {
  invert?: (pixel: [number, number]) => [number, number] | null;
  scale(): number;
  rotate(): readonly number[];
};

/** A longitude at most one turn off, back into -180..180. */
const onTheGlobe = (lng: number) => (lng > 180 ? lng - 360 : lng < -180 ? lng + 360 : lng);

/**
 * The [west, south, east, north] box a north-up Mercator map of `width` x `height` px shows (west
 * greater than east where it spans the antimeridian; all longitudes where it is wider than the
 * world). The offline map draws only the marks inside it: a mark outside the frame is clipped
 * from sight but would still take keyboard focus, unseen. The projection draws the world once,
 * from its turned -180° to 180°: a frame reaching past that edge shows sea there, and the couples
 * just across it are drawn at the map's other end, so the box stops at the edge.
 */
export function frameBox(projection: FrameProjection, width: number, height: number): [number, number, number, number] {
  const clamp = (value: number, limit: number) => Math.max(-limit, Math.min(limit, value));
  const [centre] = projection.invert?.([width / 2, height / 2]) ?? [0];
  const [, north] = projection.invert?.([0, 0]) ?? [0, 85];
  const [, south] = projection.invert?.([0, height]) ?? [0, -85];
  const turn = projection.rotate()[0] ?? 0;
  const halfWidth = ((width / 2 / projection.scale()) * 180) / Math.PI;
  const turnedCentre = onTheGlobe(centre + turn);
  const [west, east] = [Math.max(-180, turnedCentre - halfWidth) - turn, Math.min(180, turnedCentre + halfWidth) - turn];
  const wholeWorld = east - west >= 360;
  return [wholeWorld ? -180 : onTheGlobe(west), clamp(south, 85), wholeWorld ? 180 : onTheGlobe(east), clamp(north, 85)];
}
