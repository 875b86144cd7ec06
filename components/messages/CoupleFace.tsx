import { FacePhoto } from "@/components/ui/FacePhoto";
import styles from "./CoupleFace.module.css";

/** A round face in the messages' lists and thread, at one of three sizes: the one FacePhoto, its placeholder where there is no photo. */
export function CoupleFace({ url, size = 48, kind = "couple" }: { url: string | null; size?: 40 | 48 | 56; kind?: "couple" | "person" }) {
  return <FacePhoto src={url} size={size} kind={kind} className={`${styles.face} ${styles[`size${size}`]}`} lazy />;
}
