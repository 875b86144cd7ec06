import Link from "next/link";
import type { ForumAuthor } from "@/lib/forum/client/api";
import { FacePhoto } from "@/components/ui/FacePhoto";
import { RelativeTime } from "@/components/ui/RelativeTime";
import styles from "./Signature.module.css";

/**
 * "Marisol of Marisol & Thaddeus" with the couple's photo, both linking to their profile, the 'Verified
 * Couple' badge when it applies, and when it was written. A deleted member (the author deleted
 * their account) is their signature, "Deleted member", beside the placeholder face, linking
 * nowhere; so is a couple the viewer may no longer see (it hid, or was suspended), by its name.
 * Its links are not prefetched (a profile is rendered per request), as the directory's cards.
 */
export function Signature({
  author,
  at,
  edited = false,
}: {
  author: Pick<ForumAuthor, "coupleId" | "coupleImageUrl" | "isVerified" | "signature" | "profileShown">;
  at: string;
  edited?: boolean;
}) {
  const href = author.profileShown && author.coupleId !== null ? `/profile/${encodeURIComponent(author.coupleId)}` : null;
  const face = <FacePhoto src={author.coupleImageUrl} size={40} className={styles.avatar} lazy />;
  return (
    <div className={styles.signature}>
      {href === null ? (
        <span className={styles.avatarLink}>{face}</span>
      ) : (
        <Link href={href} className={styles.avatarLink} tabIndex={-1} aria-hidden="true" prefetch={false}>
          {face}
        </Link>
      )}
      <span className={styles.text}>
        {href === null ? (
          <span className={styles.author}>{author.signature}</span>
        ) : (
          <Link href={href} className={styles.author} prefetch={false}>
            {author.signature}
          </Link>
        )}
        {author.isVerified && <span className={`chip chip-verified ${styles.verified}`}>Verified Couple</span>}
        <span className={styles.meta}>
          <RelativeTime at={at} />
          {edited && <span> · edited</span>}
        </span>
      </span>
    </div>
  );
}
