import type { SavePhase } from "./useStepSave";

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
    <div className="step-progress">
      <progress className="step-progress-bar" value={progress} max={1} aria-label={labels[phase]} />
      <span className="step-progress-text" aria-hidden="true">
        {Math.round(progress * 100)}%
      </span>
    </div>
  );
}
