import Link from "next/link";
import { SayHello } from "@/components/messages/SayHello";
import { CoupleBadge } from "@/components/profile/CoupleBadge";
import { FacePhoto } from "@/components/ui/FacePhoto";
import type { ShownDirectoryCard } from "@/lib/directory/queries";
import { commonText } from "@/lib/directory/rules";
import styles from "./CoupleCard.module.css";

/**
 * One couple in the directory, face first: their main photo, then name, badge, how far and what
 * you share. The card is one link to their profile, with 'Say hello' below it. `eager`: a card of the first screen,
 * whose photo loads at once rather than when scrolled to; `first`: the list's first, the page's largest paint.
 */
export function CoupleCard({ card, eager = false, first = false }: { card: ShownDirectoryCard; eager?: boolean; first?: boolean }) {
  const verified = card.badge === "Verified Couple";
  return (
    <li className={styles.card}>
      {/* Not prefetched: a profile is rendered per request (nothing to fetch ahead), and a prefetch per
          card on the screen is a request and a parse on a phone's main thread as the list loads. */}
      <Link href={`/profile/${card.coupleId}`} className={styles.link} prefetch={false}>
        <FacePhoto src={card.profileImageUrl} size={400} className={styles.photo} lazy={!eager} priority={first} />
        <span className={styles.body}>
          <span className={styles.name} data-testid="couple-name">
            {card.coupleName}
          </span>
          <span className={verified ? "chip chip-verified" : "chip"}>{card.badge}</span>
          {card.distanceBand && <span className={styles.band}>{card.distanceBand}</span>}
          {card.location && <span className={styles.place}>{card.location}</span>}
          <span className={styles.common}>{commonText(card.interestsInCommon)}</span>
        </span>
      </Link>
      <div className={styles.actions}>
        {/* Outside the card's link: a badge is a button that explains itself. */}
        {card.photoBadge && <CoupleBadge badge={card.photoBadge} />}
        <SayHello coupleId={card.coupleId} coupleName={card.coupleName} connection={card.connection} className={styles.hello} />
      </div>
    </li>
  );
}
