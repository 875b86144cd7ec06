import Link from "next/link";
import type { DirectoryCard } from "@/lib/directory/queries";
import { commonText } from "@/lib/directory/rules";

/** One couple in the directory: the whole card is one link to their profile. */
export function CoupleCard({ card }: { card: DirectoryCard }) {
  const verified = card.badge === "Verified Couple";
  return (
    <li className="directory-card">
      <Link href={`/profile/${card.coupleId}`} className="directory-card-link">
        {card.profileImageUrl ? (
          // eslint-disable-next-line @next/next/no-img-element -- stored images are already resized by the server
          <img className="directory-photo" src={card.profileImageUrl} alt="" width={320} height={240} loading="lazy" />
        ) : (
          <span className="directory-photo directory-photo-empty" aria-hidden="true">
            {card.coupleName.trim().charAt(0).toUpperCase()}
          </span>
        )}
        <span className="directory-card-body">
          <span className="directory-name">{card.coupleName}</span>
          <span className={verified ? "directory-badge directory-badge-verified" : "directory-badge"}>{card.badge}</span>
          {(card.location || card.distanceBand) && (
            <span className="directory-place">
              {card.location}
              {card.location && card.distanceBand && " · "}
              {card.distanceBand}
            </span>
          )}
          {card.coupleTypes.length > 0 && <span className="directory-styles">{card.coupleTypes.map((type) => type.label).join(", ")}</span>}
          <span className="directory-common">{commonText(card.interestsInCommon)}</span>
        </span>
      </Link>
    </li>
  );
}
