"use client";

import { useId, useState } from "react";
import { CropDialog } from "@/components/photos/CropDialog";
import { PhotoDropZone } from "@/components/photos/PhotoDropZone";
import { Alert } from "@/components/ui/Alert";
import { FormActions } from "@/components/ui/FormActions";
import { useBrowserValue } from "@/components/ui/useBrowserValue";
import { compressImage } from "@/lib/images/client/compress";
import { imageProblem, photoToFile, type PickedPhoto } from "@/lib/images/client/photo";
import { IMAGE_SIZES } from "@/lib/images/rules";
import { fetchMyVerification, sendSelfie } from "@/lib/verification/client/api";
import { decisionDate, type MyVerification } from "@/lib/verification/rules";
import { SelfieCamera } from "./SelfieCamera";
import styles from "./Verification.module.css";

const SELFIE = IMAGE_SIZES["verification-selfie"];

/** Whether the browser offers a camera to the page (never on the server's render, so hydration agrees). */
const useHasCamera = () => useBrowserValue(() => Boolean(navigator.mediaDevices?.getUserMedia), false);

/** What the partner's verification stands at, in words. */
function StateLine({ state }: { state: MyVerification }) {
  switch (state.status) {
    case "verified":
      return <p className={styles.state}>Verified on {decisionDate(state.decidedAt!)}</p>;
    case "pending":
      return (
        <p className={styles.state}>
          Waiting for a moderator{state.submittedAt ? ` (sent on ${decisionDate(state.submittedAt)})` : ""}. We will tell you when it is
          decided.
        </p>
      );
    case "refused":
      return (
        <Alert tone="error">
          Not approved{state.decidedAt ? ` on ${decisionDate(state.decidedAt)}` : ""}: {state.refusal?.label}.
        </Alert>
      );
    default:
      return <p className={styles.state}>Not started</p>;
  }
}

/**
 * Settings › Photo verification: the partner's state, and a selfie in the pose the server picked,
 * from the camera where the browser offers it or from a file (a laptop, a refused camera), cropped
 * and compressed like every photo, then sent for a moderator to compare with the couple's photos.
 */
export function PhotoVerification({ initial }: { initial: MyVerification }) {
  const labelId = useId();
  const [state, setState] = useState(initial);
  const [taking, setTaking] = useState(initial.status === "not_started");
  const [camera, setCamera] = useState(false);
  const [pending, setPending] = useState<File | null>(null);
  const [photo, setPhoto] = useState<PickedPhoto | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const hasCamera = useHasCamera();

  function pick(file: File | undefined) {
    if (!file) return;
    const reason = imageProblem(file);
    setProblem(reason);
    if (!reason) setPending(file);
  }

  async function tryAgain() {
    setProblem(null);
    try {
      setState(await fetchMyVerification());
      setTaking(true);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : "Could not start again. Please reload.");
    }
  }

  async function send() {
    if (!photo) return;
    setProblem(null);
    setProgress(0);
    try {
      const file = await compressImage(photoToFile(photo));
      setState(await sendSelfie(state.pose.id, file, setProgress));
      setPhoto(null);
      setTaking(false);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : "Could not send the selfie. Please try again.");
    } finally {
      setProgress(null);
    }
  }

  return (
    <section aria-labelledby={labelId} className={styles.section}>
      <h2 id={labelId}>Your photo</h2>
      <StateLine state={state} />
      <p className={styles.muted}>
        A moderator compares a selfie of you, in a pose we pick, with your photos, then deletes the selfie. Only moderators ever see it.
        Your couple then shows &lsquo;Photo verified&rsquo;, or &lsquo;Both photo verified&rsquo; once your partner has done it too.
        Replacing your own photo asks again.
      </p>
      {state.status === "refused" && !taking && (
        <button type="button" className="button button-primary" onClick={tryAgain}>
          Try again
        </button>
      )}
      {taking && (
        <>
          <p className={styles.pose}>
            Your pose: <strong data-testid="pose">{state.pose.label}</strong>
          </p>
          {problem && <Alert tone="error">{problem}</Alert>}
          {photo ? (
            <div className={styles.preview}>
              {/* eslint-disable-next-line @next/next/no-img-element -- a data URL of the crop, not an optimisable asset */}
              <img
                src={photo.dataUrl}
                alt="Your selfie, ready to send"
                width={photo.width}
                height={photo.height}
                className={styles.selfie}
              />
              <FormActions
                label="Send for review"
                busyLabel={`Sending... ${Math.round((progress ?? 0) * 100)}%`}
                busy={progress !== null}
                onAction={send}
                onCancel={() => setPhoto(null)}
                cancelLabel="Take another"
              />
            </div>
          ) : camera ? (
            <SelfieCamera
              onCapture={(file) => {
                setCamera(false);
                setPending(file);
              }}
              onUnavailable={() => {
                setCamera(false);
                setProblem("The camera is not available. Choose a photo of yourself instead.");
              }}
              onCancel={() => setCamera(false)}
            />
          ) : (
            <div className={styles.choices}>
              {hasCamera && (
                <button type="button" className="button button-primary" onClick={() => setCamera(true)}>
                  Use the camera
                </button>
              )}
              <span id={`${labelId}-file`} className={styles.label}>
                Or choose a photo
              </span>
              <PhotoDropZone labelledBy={`${labelId}-file`} onFiles={(files) => pick(files[0])} />
            </div>
          )}
          <CropDialog
            file={pending}
            aspect={SELFIE.width / SELFIE.height}
            circular={false}
            output={SELFIE}
            onCancel={() => setPending(null)}
            onApply={(cropped) => {
              setPending(null);
              setPhoto(cropped);
            }}
          />
        </>
      )}
    </section>
  );
}
