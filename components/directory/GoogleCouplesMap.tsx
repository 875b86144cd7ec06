"use client";

import { AdvancedMarker, APIProvider, ColorScheme, Map, useMap } from "@vis.gl/react-google-maps";
import { useTheme } from "next-themes";
import { useEffect, useMemo, useState } from "react";
import { boundsOf, clusterIndex } from "@/lib/directory/map";
import type { MapCard } from "@/lib/directory/client/api";
import type { CouplesMapProps } from "./DirectoryMap";
import { ClusterMark, CoupleMark } from "./MapMarks";
import styles from "./DirectoryMap.module.css";

const KEY = process.env.NEXT_PUBLIC_GOOGLE_MAPS_BROWSER_KEY ?? "";

/**
 * The directory's map on Google Maps (with NEXT_PUBLIC_GOOGLE_MAPS_BROWSER_KEY): the same marks as
 * the offline map, clustered for the camera's zoom and box as it moves; a cluster zooms in on its
 * couples, or opens their cards where they share one point.
 */
export default function GoogleCouplesMap({ couples, area, onOpen }: CouplesMapProps) {
  const box = area ?? boundsOf(couples.map((couple) => couple.point)) ?? [-170, -60, 170, 78];
  // The page's theme, not the device's: someone who chose dark gets a dark map.
  const { resolvedTheme } = useTheme();
  return (
    <div className={styles.canvas}>
      <APIProvider apiKey={KEY}>
        <Map
          defaultBounds={{ west: box[0], south: box[1], east: box[2], north: box[3] }}
          mapId="DEMO_MAP_ID"
          colorScheme={resolvedTheme === "dark" ? ColorScheme.DARK : ColorScheme.LIGHT}
          gestureHandling="cooperative"
          disableDefaultUI
          zoomControl
          style={{ width: "100%", height: "100%" }}
        >
          <Marks couples={couples} area={area} onOpen={onOpen} />
        </Map>
      </APIProvider>
    </div>
  );
}

function Marks({ couples, onOpen }: CouplesMapProps) {
  const map = useMap();
  const index = useMemo(() => clusterIndex(couples), [couples]);
  const [camera, setCamera] = useState<{ zoom: number; box: [number, number, number, number] } | null>(null);
  useEffect(() => {
    if (!map) return;
    // The marks follow the camera once it settles (pan, zoom), not on every frame of the move.
    const listener = map.addListener("idle", () => {
      const bounds = map.getBounds()?.toJSON();
      if (bounds) setCamera({ zoom: map.getZoom() ?? 2, box: [bounds.west, bounds.south, bounds.east, bounds.north] });
    });
    return () => listener.remove();
  }, [map]);
  if (!map || !camera) return null;

  function openCluster(leaves: MapCard[], expansionZoom: number, at: { lat: number; lng: number }) {
    const leavesBox = boundsOf(
      leaves.map((couple) => couple.point),
      0,
    )!;
    if (leavesBox[2] - leavesBox[0] < 0.02 && leavesBox[3] - leavesBox[1] < 0.02) onOpen(leaves);
    else {
      map!.setCenter(at);
      map!.setZoom(expansionZoom);
    }
  }

  return index.marks(camera.box, camera.zoom).map((mark) => (
    <AdvancedMarker key={mark.id} position={{ lat: mark.lat, lng: mark.lng }}>
      {mark.kind === "couple" ? (
        <CoupleMark couple={mark.couple} onOpen={(couple) => onOpen([couple])} />
      ) : (
        <ClusterMark count={mark.count} leaves={mark.leaves} onOpen={(leaves) => openCluster(leaves, mark.expansionZoom, mark)} />
      )}
    </AdvancedMarker>
  ));
}
