"use client";

import { geoMercator, geoPath } from "d3-geo";
import { useEffect, useMemo, useRef, useState } from "react";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import land from "world-atlas/land-110m.json";
import { boundsOf, clusterIndex, frameBox, zoomOfScale } from "@/lib/directory/map";
import type { MapCard } from "@/lib/directory/client/api";
import type { CouplesMapProps } from "./DirectoryMap";
import { MapMarks } from "./MapMarks";
import styles from "./DirectoryMap.module.css";

const WORLD = feature(land as unknown as Topology, (land as unknown as Topology<{ land: GeometryCollection }>).objects.land);
const INSET = 24;

/**
 * The embedded default's map: Natural Earth's land outlines (world-atlas, drawn with d3-geo),
 * opening on the viewer's area (else fitted to the couples), no tiles and no third party. A cluster zooms in on its couples; where
 * they share one point (a city-level place snaps to the same 0.01° as its neighbours) it opens
 * their cards instead.
 */
export default function OfflineCouplesMap({ couples, area, onOpen }: CouplesMapProps) {
  const frame = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  const all = useMemo(() => boundsOf(couples.map((couple) => couple.point)), [couples]);
  const [box, setBox] = useState(() => area ?? all);
  const index = useMemo(() => clusterIndex(couples), [couples]);

  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setSize({ width: entry!.contentRect.width, height: entry!.contentRect.height }));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const { width, height } = size;
  const projection = useMemo(() => {
    const [west, south, east, north] = box ?? [-170, -60, 170, 78];
    const outline = {
      type: "Feature" as const,
      properties: {},
      geometry: {
        type: "MultiPoint" as const,
        coordinates: [
          [west, south],
          [east, north],
        ],
      },
    };
    return geoMercator().fitExtent(
      [
        [INSET, INSET],
        [Math.max(width - INSET, INSET + 1), Math.max(height - INSET, INSET + 1)],
      ],
      outline,
    );
  }, [box, width, height]);
  const path = useMemo(() => geoPath(projection)(WORLD) ?? "", [projection]);
  // Only the marks inside the frame: one outside it is clipped from sight yet would take keyboard focus.
  const marks = useMemo(
    () => index.marks(frameBox(projection, width, height), zoomOfScale(projection.scale())),
    [index, projection, width, height],
  );
  const fitted = box === null || JSON.stringify(box) === JSON.stringify(all);

  function openCluster(leaves: MapCard[]) {
    const leavesBox = boundsOf(
      leaves.map((couple) => couple.point),
      0,
    )!;
    // Couples at one point never part, however far one zooms: show their cards.
    if (leavesBox[2] - leavesBox[0] < 0.02 && leavesBox[3] - leavesBox[1] < 0.02) onOpen(leaves);
    else
      setBox(
        boundsOf(
          leaves.map((couple) => couple.point),
          0.2,
        ),
      );
  }

  return (
    <>
      <div className={styles.canvas} ref={frame}>
        {width > 0 && (
          <>
            <svg width={width} height={height} className={styles.land} aria-hidden="true">
              <rect width={width} height={height} className={styles.sea} />
              <path d={path} />
            </svg>
            <MapMarks
              marks={marks.map((mark) => {
                const [x, y] = projection([mark.lng, mark.lat]) ?? [-100, -100];
                return { mark, x, y };
              })}
              onCouple={(couple) => onOpen([couple])}
              onCluster={openCluster}
            />
          </>
        )}
      </div>
      {/* Under the map, never over a mark. */}
      {!fitted && (
        <button type="button" className={`button button-secondary ${styles.reset}`} onClick={() => setBox(all)}>
          Show all couples
        </button>
      )}
    </>
  );
}
