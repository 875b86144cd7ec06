import styles from "./FacePhoto.module.css";

type Props = {
  /** The stored photo (already resized and square-cropped by the server), or null when none was added. */
  src: string | null;
  /** Its intrinsic size in CSS pixels: set on the image so the page keeps its place while it loads. */
  size: number;
  /** Empty when the name beside it says who it is (the usual case). */
  alt?: string;
  /** A couple's photo shows two people where it is missing, a partner's one. */
  kind?: "couple" | "person";
  /** Sizes and shape (a circle, a card's full width): the caller's module. */
  className?: string;
  /** Below the first screen: lists of cards load their photos as they scroll in. */
  lazy?: boolean;
  /** The page's largest paint (its first face): fetched ahead of the page's other images. */
  priority?: boolean;
};

/**
 * A face: the couple's or a partner's photo, square, or the one placeholder every page shows where
 * none was added (a quiet outline of two people, or one), never initials that read as a photo.
 */
export function FacePhoto({ src, size, alt = "", kind = "couple", className, lazy = false, priority = false }: Props) {
  const classes = `${styles.face} ${className ?? ""}`;
  if (src)
    return (
      // eslint-disable-next-line @next/next/no-img-element -- stored photos are already resized by the server; next/image would resize again
      <img
        className={classes}
        src={src}
        alt={alt}
        width={size}
        height={size}
        // Left out when unset rather than undefined: a server-rendered face's props travel in the
        // page's flight data, where an undefined one is still sent ("fetchPriority":"$undefined").
        {...(lazy && { loading: "lazy" })}
        {...(priority && { fetchPriority: "high" })}
        decoding="async"
      />
    );
  return (
    <span
      className={`${classes} ${styles.placeholder}`}
      {...(alt ? { role: "img", "aria-label": alt } : { "aria-hidden": true })}
      data-testid="face-placeholder"
    >
      <svg viewBox="0 0 48 48" fill="currentColor" aria-hidden="true" className={styles.outline}>
        {kind === "couple" ? (
          <>
            <circle cx="17" cy="17" r="6.5" />
            <path d="M5 38c0-7.2 5.4-12 12-12s12 4.8 12 12z" />
            <circle cx="32" cy="19" r="5.5" opacity="0.7" />
            <path d="M31 38c0-4.6-1.3-8.2-3.6-10.6A10 10 0 0 1 43 36.5V38z" opacity="0.7" />
          </>
        ) : (
          <>
            <circle cx="24" cy="17" r="7.5" />
            <path d="M10 40c0-8.3 6.3-14 14-14s14 5.7 14 14z" />
          </>
        )}
      </svg>
    </span>
  );
}
