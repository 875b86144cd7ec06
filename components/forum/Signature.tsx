import Link from "next/link";
import { signature } from "@/lib/forum/rules";
import type { ForumAuthor } from "@/lib/forum/client/api";
import { FacePhoto } from "@/components/ui/FacePhoto";
import { RelativeTime } from "./RelativeTime";
import styles from "./Signature.module.css";

/**
 * "Maya of Maya & Theo" with the couple's photo, both linking to their profile, the 'Verified
 * Couple' badge when it applies, and when it was written.
 */
export function Signature({ author, at, edited = false }: { author: ForumAuthor; at: string; edited?: boolean }) {
  const href = `/profile/${encodeURIComponent(author.coupleId)}`;
  return (
    <div className={styles.signature}>
      <Link href={href} className={styles.avatarLink} tabIndex={-1} aria-hidden="true">
        <FacePhoto src={author.coupleImageUrl} size={40} className={styles.avatar} lazy />
      </Link>
      <span className={styles.text}>
        <Link href={href} className={styles.author}>
          {signature(author.firstName, author.coupleName)}
        </Link>
        {author.isVerified && <span className={`chip chip-verified ${styles.verified}`}>Verified Couple</span>}
        <span className={styles.meta}>
          <RelativeTime at={at} />
          {edited && <span> · edited</span>}
        </span>
      </span>
    </div>
  );
}
