import styles from "./CoupleFace.module.css";

/** A couple's photo as a round face, or their initial when they have none (faces before text). */
export function CoupleFace({ name, url, size = 48 }: { name: string; url: string | null; size?: 40 | 48 | 56 }) {
  const sized = `${styles.face} ${styles[`size${size}`]}`;
  if (url)
    // eslint-disable-next-line @next/next/no-img-element -- stored images are already resized by the server
    return <img className={sized} src={url} alt="" width={size} height={size} loading="lazy" />;
  return (
    <span className={`${sized} ${styles.initial}`} aria-hidden="true">
      {name.trim().charAt(0).toUpperCase()}
    </span>
  );
}
