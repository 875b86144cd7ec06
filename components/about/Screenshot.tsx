import styles from "./About.module.css";

/** Phone screenshots are 390 x 844 CSS pixels, stored at twice that for sharp screens. */
const WIDTH = 390;
const HEIGHT = 844;

/** A screenshot of the app with its caption: sized before it loads, so the page does not move. */
export function Screenshot({ src, alt, caption }: { src: string; alt: string; caption: string }) {
  return (
    <figure className={styles.shot}>
      {/* eslint-disable-next-line @next/next/no-img-element -- a static file already sized and compressed; next/image would resize it again */}
      <img src={src} alt={alt} width={WIDTH} height={HEIGHT} loading="lazy" decoding="async" />
      <figcaption>{caption}</figcaption>
    </figure>
  );
}
