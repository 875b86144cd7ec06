import type { SendPhase } from "@/lib/images/client/send-photos";
import styles from "./SaveProgress.module.css";

/** Optimizing the photos, then sending the form; idle before and after. */
export type SavePhase = "idle" | SendPhase;

/** The save's real progress while a step is being saved: optimizing first, then uploading. */
export function SaveProgress({
  phase,
  progress,
  labels,
}: {
  phase: SavePhase;
  progress: number;
  labels: Record<Exclude<SavePhase, "idle">, string>;
}) {
  if (phase === "idle") return null;
  return (
    <div className={styles.progress}>
      <progress className={styles.bar} value={progress} max={1} aria-label={labels[phase]} />
      <span className={styles.text} aria-hidden="true">
        {Math.round(progress * 100)}%
      </span>
    </div>
  );
}
