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
  // The outline is the stylesheet's (a mask), not an inline SVG: a page of faces sends it once, not with each of them.
  return (
    <span
      className={`${classes} ${styles.placeholder} ${kind === "couple" ? styles.couple : styles.person}`}
      {...(alt ? { role: "img", "aria-label": alt } : { "aria-hidden": true })}
      data-testid="face-placeholder"
    />
  );
}
