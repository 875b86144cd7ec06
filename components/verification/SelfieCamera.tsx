"use client";

import { useEffect, useRef, useState } from "react";
import { FormActions } from "@/components/ui/FormActions";
import styles from "./Verification.module.css";

type SelfieCameraProps = {
  onCapture(file: File): void;
  /** The camera was refused or is missing: the partner picks a file instead. */
  onUnavailable(): void;
  onCancel(): void;
};

/**
 * The front camera in the page (getUserMedia): a live preview and 'Take the photo', which hands a
 * JPEG of the frame to the crop like a picked file. The camera is released when it closes.
 */
export function SelfieCamera({ onCapture, onUnavailable, onCancel }: SelfieCameraProps) {
  const video = useRef<HTMLVideoElement>(null);
  const [ready, setReady] = useState(false);
  const unavailable = useRef(onUnavailable);
  useEffect(() => {
    unavailable.current = onUnavailable;
  });

  useEffect(() => {
    let stream: MediaStream | null = null;
    let closed = false;
    navigator.mediaDevices.getUserMedia({ video: { facingMode: "user" }, audio: false }).then(
      (opened) => {
        if (closed) return opened.getTracks().forEach((track) => track.stop());
        stream = opened;
        if (video.current) {
          video.current.srcObject = opened;
          void video.current.play().then(
            () => setReady(true),
            () => unavailable.current(),
          );
        }
      },
      () => unavailable.current(),
    );
    return () => {
      closed = true;
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, []);

  function take() {
    const frame = video.current;
    if (!frame || !frame.videoWidth) return;
    const canvas = document.createElement("canvas");
    canvas.width = frame.videoWidth;
    canvas.height = frame.videoHeight;
    canvas.getContext("2d")?.drawImage(frame, 0, 0);
    canvas.toBlob((blob) => blob && onCapture(new File([blob], "selfie.jpg", { type: "image/jpeg" })), "image/jpeg", 0.92);
  }

  return (
    <div className={styles.camera}>
      <video ref={video} className={styles.video} playsInline muted aria-label="Camera preview" />
      <FormActions label="Take the photo" onAction={take} disabled={!ready} onCancel={onCancel} />
    </div>
  );
}
