"use client";

import dynamic from "next/dynamic";
import { Dialog } from "@/components/ui/Dialog";
import type { PickedPhoto } from "@/lib/images/client/photo";
import styles from "./CropDialog.module.css";

export type Size = { width: number; height: number };
export type CropDialogProps = {
  /** The dialog is open while a file is given. */
  file: File | null;
  aspect: number;
  circular: boolean;
  output: Size;
  onCancel(): void;
  onApply(photo: PickedPhoto): void;
};

// The first paint of the pages with a photo field does not need the crop: it loads when a photo is picked.
const CropWorkspace = dynamic(() => import("./CropWorkspace").then((module) => module.CropWorkspace), {
  ssr: false,
  loading: () => <p className={styles.loading}>Loading image...</p>,
});

/** Each file gets a fresh workspace (crop, errors), even when the same file object comes again later. */
const workspaceKeys = new WeakMap<File, number>();
let workspaceCount = 0;
function workspaceKey(file: File): number {
  let key = workspaceKeys.get(file);
  if (key === undefined) {
    key = ++workspaceCount;
    workspaceKeys.set(file, key);
  }
  return key;
}

export function CropDialog(props: CropDialogProps) {
  const { file, onCancel } = props;
  return (
    <Dialog
      open={file !== null}
      // The dialog also reports a close after the parent has already taken the file away (applied).
      onClose={() => {
        if (file) onCancel();
      }}
      title="Crop Your Image"
      closeButton
      className={styles.dialog}
    >
      {file && <CropWorkspace key={workspaceKey(file)} {...props} file={file} />}
    </Dialog>
  );
}
