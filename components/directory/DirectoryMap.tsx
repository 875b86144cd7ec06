"use client";

import dynamic from "next/dynamic";
import Link from "next/link";
import { useEffect, useState } from "react";
import { Alert } from "@/components/ui/Alert";
import { FacePhoto } from "@/components/ui/FacePhoto";
import { fetchDirectoryMap, type DirectoryMapAnswer, type MapCard } from "@/lib/directory/client/api";
import { mapCountText, type DirectoryFilters } from "@/lib/directory/rules";
import { CoupleCard } from "./CoupleCard";
import styles from "./DirectoryMap.module.css";

/**
 * What either map draws: the couples at their shown points, opening on `area` (the viewer's, when
 * they have a place) or on all of them; `onOpen` shows a couple's card (or several, where they share a point).
 */
export type CouplesMapProps = { couples: MapCard[]; area: Box | null; onOpen: (couples: MapCard[]) => void };

type Box = [number, number, number, number];

const Loading = () => <div className={styles.canvas} aria-hidden="true" />;
// The map's code (and the offline map's outlines) loads only when the map is opened: not in the directory's first load.
const CouplesMap = process.env.NEXT_PUBLIC_GOOGLE_MAPS_BROWSER_KEY
  ? dynamic(() => import("./GoogleCouplesMap"), { ssr: false, loading: Loading })
  : dynamic(() => import("./OfflineCouplesMap"), { ssr: false, loading: Loading });

/**
 * The directory on a map: the couples the list would show for the same filters (the first 500 in
 * its sort), each at its shown point, clustered where they overlap; a mark opens
 * the couple's card. Beside the map, the same couples as a list, which is how a keyboard or a
 * screen reader goes through them.
 */
export function DirectoryMap({ filters }: { filters: DirectoryFilters }) {
  const [answer, setAnswer] = useState<DirectoryMapAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<MapCard[]>([]);

  useEffect(() => {
    fetchDirectoryMap(filters).then(setAnswer, (failure: unknown) =>
      setError(failure instanceof Error ? failure.message : "Could not load the map. Please try again."),
    );
  }, [filters]);

  if (error) return <Alert tone="error">{error}</Alert>;
  const couples = answer?.data ?? [];
  return (
    <div className={styles.layout}>
      <div className={styles.mapArea}>
        {answer ? <CouplesMap couples={couples} area={answer.area} onOpen={setOpen} /> : <Loading />}
        {open.length > 0 && (
          <section className={styles.opened} aria-label="Chosen on the map">
            <ul className={styles.cards}>
              {open.map((card) => (
                <CoupleCard key={card.coupleId} card={card} eager />
              ))}
            </ul>
            <button type="button" className="button button-secondary" onClick={() => setOpen([])}>
              Close
            </button>
          </section>
        )}
      </div>
      <section className={styles.listArea} aria-labelledby="map-list-heading">
        <h2 id="map-list-heading">Couples on the map</h2>
        <p className={styles.count} role="status">
          {answer ? mapCountText({ count: couples.length, more: answer.more }, filters.sort) : "Loading..."}
        </p>
        <ul className={styles.list}>
          {couples.map((card) => (
            <li key={card.coupleId}>
              <Link href={`/profile/${card.coupleId}`} className={styles.row}>
                <FacePhoto src={card.profileImageUrl} size={40} className={styles.face} lazy />
                <span className={styles.rowText}>
                  <span className={styles.rowName}>{card.coupleName}</span>
                  <span className={styles.rowMeta}>{[card.distanceBand, card.location].filter(Boolean).join(" · ")}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
