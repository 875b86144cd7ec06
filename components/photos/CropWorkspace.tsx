"use client";

import { useEffect, useRef, useState } from "react";
import ReactCrop, { centerCrop, convertToPixelCrop, makeAspectCrop, type PercentCrop } from "react-image-crop";
import "react-image-crop/dist/ReactCrop.css";
import { Alert } from "@/components/ui/Alert";
import { FormActions } from "@/components/ui/FormActions";
import { CROP_FAILED_MESSAGE, CROP_JPEG_QUALITY, INVALID_IMAGE_MESSAGE, NO_CROP_AREA_MESSAGE } from "@/lib/images/rules";
import { croppedFileName, drawJpeg, minCropSize, type PickedPhoto } from "@/lib/images/client/photo";
import type { CropDialogProps, Size } from "./CropDialog";
import styles from "./CropDialog.module.css";

/** The crop itself: loaded (with react-image-crop and its styles) only once a photo is picked. */

const ARIA_LABELS = {
  ...ReactCrop.defaultProps.ariaLabels,
  cropArea: "Crop area: arrow keys move it by 1 pixel, with Shift by 10, with Ctrl (Cmd on a Mac) by 100",
};

export function CropWorkspace({ file, aspect, circular, output, onCancel, onApply }: CropDialogProps & { file: File }) {
  const imageRef = useRef<HTMLImageElement>(null);
  const areaRef = useRef<HTMLDivElement>(null);
  const [crop, setCrop] = useState<PercentCrop>();
  const [status, setStatus] = useState<"loading" | "ready" | "unreadable">("loading");
  const [cropping, setCropping] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // The object URL is made and revoked by the same effect; React never renders the src, so it cannot reset it.
  useEffect(() => {
    const image = imageRef.current;
    if (!image) return;
    const url = URL.createObjectURL(file);
    image.src = url;
    return () => URL.revokeObjectURL(url);
  }, [file]);

  // Keyboard users land on the crop box, where the arrow keys move it.
  useEffect(() => {
    if (status === "ready") areaRef.current?.querySelector<HTMLElement>(".ReactCrop__crop-selection")?.focus();
  }, [status]);

  function startCrop(image: HTMLImageElement) {
    // Percent units need only the proportions, so the natural size serves while the image is still hidden.
    const { naturalWidth: width, naturalHeight: height } = image;
    setCrop(centerCrop(makeAspectCrop({ unit: "%", width: 80 }, aspect, width, height), width, height));
    setStatus("ready");
  }

  // Enabled once the image is read (until then there is nothing to crop: the button waits, rather than refuse).
  async function apply() {
    const image = imageRef.current;
    if (!image || status !== "ready" || !crop?.width || !crop.height) {
      setError(NO_CROP_AREA_MESSAGE);
      return;
    }
    setCropping(true);
    setError(null);
    try {
      onApply(await cropToPhoto(image, crop, output, croppedFileName(file.name, Date.now())));
    } catch {
      setError(CROP_FAILED_MESSAGE);
    } finally {
      setCropping(false);
    }
  }

  return (
    <>
      <p className={styles.hint}>
        Drag to move, drag corners to resize. Final size: {output.width}x{output.height}px
      </p>
      {status === "loading" && <p className={styles.loading}>Loading image...</p>}
      {status === "unreadable" && <Alert tone="error">{INVALID_IMAGE_MESSAGE}</Alert>}
      <div ref={areaRef} className={styles.area} hidden={status !== "ready"}>
        <ReactCrop
          crop={crop}
          onChange={(_, percent) => setCrop(percent)}
          aspect={aspect}
          circularCrop={circular}
          {...minCropSize(aspect)}
          ruleOfThirds
          keepSelection
          ariaLabels={ARIA_LABELS}
          disabled={cropping}
        >
          {/* eslint-disable-next-line @next/next/no-img-element -- a local object URL, not an optimisable asset */}
          <img
            ref={imageRef}
            alt="Image to crop"
            onLoad={(event) => startCrop(event.currentTarget)}
            onError={() => setStatus("unreadable")}
          />
        </ReactCrop>
      </div>
      {error && <Alert tone="error">{error}</Alert>}
      <FormActions
        label="Apply Crop"
        busyLabel="Cropping..."
        busy={cropping}
        onAction={apply}
        disabled={status !== "ready"}
        onCancel={onCancel}
      />
    </>
  );
}

/**
 * Draws the chosen area of the full-resolution image at exactly the output size the server
 * stores (no device-pixel-ratio scaling: the size is fixed), as a JPEG at quality 0.95.
 */
async function cropToPhoto(image: HTMLImageElement, crop: PercentCrop, output: Size, name: string): Promise<PickedPhoto> {
  const area = convertToPixelCrop(crop, image.naturalWidth, image.naturalHeight);
  const blob = await drawJpeg(output, CROP_JPEG_QUALITY, (context) =>
    context.drawImage(image, area.x, area.y, area.width, area.height, 0, 0, output.width, output.height),
  );
  return { dataUrl: await readAsDataUrl(blob), name, size: blob.size, ...output };
}

function readAsDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}
