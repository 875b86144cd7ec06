import { FacePhoto } from "@/components/ui/FacePhoto";
import type { MapCard } from "@/lib/directory/client/api";
import type { MapMark } from "@/lib/directory/map";
import styles from "./DirectoryMap.module.css";

type Placed = { mark: MapMark<MapCard>; x: number; y: number };

/** The marks over the offline map: a couple's face, or a cluster's count; each a 44 px button named in words. */
export function MapMarks({
  marks,
  onCouple,
  onCluster,
}: {
  marks: Placed[];
  onCouple: (couple: MapCard) => void;
  onCluster: (leaves: MapCard[]) => void;
}) {
  return (
    <ul className={styles.marks} aria-label="Marks on the map">
      {marks.map(({ mark, x, y }) => (
        <li key={mark.id} style={{ left: x, top: y }} className={styles.markAt}>
          {mark.kind === "couple" ? (
            <CoupleMark couple={mark.couple} onOpen={onCouple} />
          ) : (
            <ClusterMark count={mark.count} leaves={mark.leaves} onOpen={onCluster} />
          )}
        </li>
      ))}
    </ul>
  );
}

export function CoupleMark({ couple, onOpen }: { couple: MapCard; onOpen: (couple: MapCard) => void }) {
  return (
    <button type="button" className={styles.mark} aria-label={`${couple.coupleName}: show their card`} onClick={() => onOpen(couple)}>
      <FacePhoto src={couple.profileImageUrl} size={40} className={styles.markFace} />
    </button>
  );
}

export function ClusterMark({ count, leaves, onOpen }: { count: number; leaves: MapCard[]; onOpen: (leaves: MapCard[]) => void }) {
  return (
    <button
      type="button"
      className={`${styles.mark} ${styles.cluster}`}
      aria-label={`${count} couples here: show them`}
      onClick={() => onOpen(leaves)}
    >
      {count}
    </button>
  );
}
