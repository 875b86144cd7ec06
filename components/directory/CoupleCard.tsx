import Link from "next/link";
import { SayHello } from "@/components/messages/SayHello";
import type { DirectoryCard } from "@/lib/directory/queries";
import { commonText } from "@/lib/directory/rules";
import styles from "./CoupleCard.module.css";

/** One couple in the directory: one link to their profile (face first), and 'Say hello' below it. */
export function CoupleCard({ card }: { card: DirectoryCard }) {
  const verified = card.badge === "Verified Couple";
  return (
    <li className={styles.card}>
      <Link href={`/profile/${card.coupleId}`} className={styles.link}>
        {card.profileImageUrl ? (
          // eslint-disable-next-line @next/next/no-img-element -- stored images are already resized by the server
          <img className={styles.photo} src={card.profileImageUrl} alt="" width={320} height={240} loading="lazy" />
        ) : (
          <span className={`${styles.photo} ${styles.noPhoto}`} aria-hidden="true">
            {card.coupleName.trim().charAt(0).toUpperCase()}
          </span>
        )}
        <span className={styles.body}>
          <span className={styles.name} data-testid="couple-name">
            {card.coupleName}
          </span>
          <span className={verified ? "chip chip-verified" : "chip"}>{card.badge}</span>
          {(card.location || card.distanceBand) && (
            <span className={styles.place}>
              {card.location}
              {card.location && card.distanceBand && " · "}
              {card.distanceBand}
            </span>
          )}
          {card.coupleTypes.length > 0 && <span className={styles.place}>{card.coupleTypes.map((type) => type.label).join(", ")}</span>}
          <span className={styles.common}>{commonText(card.interestsInCommon)}</span>
        </span>
      </Link>
      <div className={styles.actions}>
        <SayHello coupleId={card.coupleId} coupleName={card.coupleName} connection={card.connection} className={styles.hello} />
      </div>
    </li>
  );
}
