import Link from "next/link";
import type { ReactNode } from "react";
import { FacePhoto } from "@/components/ui/FacePhoto";
import type { CoupleProfile } from "@/lib/couples/queries";
import { COUPLE_TYPE_DESCRIPTIONS, EXTRA_PHOTOS_MAX, type CoupleType } from "@/lib/couples/rules";
import { INTEREST_ROWS } from "@/lib/interests/catalogue";
import styles from "./CoupleProfileView.module.css";
import { CoupleBadge } from "./CoupleBadge";
import { PhotoLightbox } from "./PhotoLightbox";

const interestLabels = new Map(INTEREST_ROWS.map((row) => [row.value, row.label]));
const labelled = (values: readonly string[]) => values.map((value) => ({ value, label: interestLabels.get(value) ?? value }));

/** The interests Venn of another couple's profile: four labelled groups, each in words (not colour alone). */
function InterestsVenn({ venn, coupleName }: { venn: NonNullable<CoupleProfile["interestsVenn"]>; coupleName: string }) {
  const groups = [
    { key: "allFour", title: "All four of you", items: venn.allFour, empty: "No interest all four of you share yet." },
    { key: "shared", title: "Both couples", items: venn.shared, empty: "No interests in common yet." },
    { key: "onlyYours", title: "Only yours", items: venn.onlyYours, empty: "None." },
    { key: "onlyTheirs", title: `Only ${coupleName}`, items: venn.onlyTheirs, empty: "None." },
  ];
  return (
    <section className={styles.section} aria-labelledby="profile-venn">
      <h2 id="profile-venn">Interests in common</h2>
      <div className={styles.venn}>
        {groups.map((group) => (
          <div
            key={group.key}
            className={group.key === "allFour" ? `${styles.vennGroup} ${styles.allFour}` : styles.vennGroup}
            data-testid={`venn-${group.key}`}
          >
            <h3>
              {group.title} <span className={styles.vennCount}>({group.items.length})</span>
            </h3>
            {group.items.length > 0 ? (
              <Chips items={labelled(group.items)} label={group.title} />
            ) : (
              <p className={styles.hint}>{group.empty}</p>
            )}
          </div>
        ))}
      </div>
    </section>
  );
}

/** A list of labelled picks (adventure styles, interests) as chips; shared ones (both partners chose them) are marked in words too. */
function Chips({ items, label }: { items: readonly { value: string; label: string; shared?: boolean }[]; label?: string }) {
  return (
    <ul className={styles.chips} aria-label={label}>
      {items.map((item) => (
        <li key={item.value} className={item.shared ? `${styles.chip} ${styles.shared}` : styles.chip}>
          {item.label}
          {item.shared && <span className={styles.sharedMark}> · shared</span>}
        </li>
      ))}
    </ul>
  );
}

type Props = {
  profile: CoupleProfile;
  /** 'Say hello' or 'Message' and the menu with Report and Block, on another couple's profile (its own partners get 'Edit profile' instead). */
  actions?: ReactNode;
  /** Another couple's latest forum posts, as list rows. */
  recentPosts?: ReactNode[];
};

/**
 * A couple's profile as the viewer may see it: lib/couples/queries has already applied the
 * privacy level to the location and left out what the viewer may not see.
 */
export function CoupleProfileView({ profile, actions, recentPosts }: Props) {
  const headingId = "couple-profile-title";
  return (
    <main id="main" className="page">
      <article aria-labelledby={headingId} className={styles.article}>
        <header className={styles.header}>
          <FacePhoto
            src={profile.profileImageUrl}
            size={400}
            className={styles.mainPhoto}
            alt={profile.profileImageUrl ? `${profile.coupleName}, main photo` : ""}
            priority
          />
          <div className={styles.heading}>
            <h1 id={headingId}>{profile.coupleName}</h1>
            <CoupleBadge badge={profile.badge} />
            {profile.photoBadge && <CoupleBadge badge={profile.photoBadge} />}
            {(profile.location || profile.distanceBand) && (
              <p className={styles.location}>
                {profile.location}
                {profile.location && profile.distanceBand && " · "}
                {profile.distanceBand}
              </p>
            )}
            {profile.isOwn ? (
              <p>
                <Link href="/settings/couple" className="button button-secondary">
                  Edit profile
                </Link>
              </p>
            ) : (
              actions && <div className={styles.actions}>{actions}</div>
            )}
          </div>
        </header>

        {profile.bio && (
          <section className={styles.section} aria-labelledby="profile-about">
            <h2 id="profile-about">About us</h2>
            <p className={styles.bio}>{profile.bio}</p>
          </section>
        )}

        {profile.coupleTypes.length > 0 && (
          <section className={styles.section} aria-labelledby="profile-styles">
            <h2 id="profile-styles">Adventure styles</h2>
            <dl className={styles.adventureStyles}>
              {profile.coupleTypes.map((type) => (
                <div key={type.value}>
                  <dt>{type.label}</dt>
                  {type.value in COUPLE_TYPE_DESCRIPTIONS && <dd>{COUPLE_TYPE_DESCRIPTIONS[type.value as CoupleType]}</dd>}
                </div>
              ))}
            </dl>
          </section>
        )}

        {profile.interests.length > 0 && (
          <section className={styles.section} aria-labelledby="profile-interests">
            <h2 id="profile-interests">Interests</h2>
            {profile.partners.length === 2 && <p className={styles.hint}>Both partners&apos; interests; the ones they share are marked.</p>}
            <Chips items={profile.interests} />
          </section>
        )}

        {profile.interestsVenn && <InterestsVenn venn={profile.interestsVenn} coupleName={profile.coupleName} />}

        {profile.photos.length > 0 ? (
          <section className={styles.section} aria-labelledby="profile-photos">
            <h2 id="profile-photos">Photos</h2>
            <PhotoLightbox
              main={profile.profileImageUrl}
              photos={profile.photos.slice(0, EXTRA_PHOTOS_MAX)}
              coupleName={profile.coupleName}
            />
          </section>
        ) : null}

        <section className={styles.section} aria-labelledby="profile-partners">
          <h2 id="profile-partners">The two of us</h2>
          <ul className={styles.partners}>
            {profile.partners.map((partner) => (
              <li key={partner.id} className={styles.partner}>
                <FacePhoto
                  src={partner.avatarUrl}
                  size={400}
                  kind="person"
                  className={styles.avatar}
                  alt={partner.avatarUrl ? `Photo of ${partner.firstName}` : ""}
                  lazy
                />
                <div>
                  <h3>
                    {partner.firstName}
                    {partner.age !== null && <span className={styles.age}>, {partner.age}</span>}
                  </h3>
                  {partner.occupation && <p className={styles.occupation}>{partner.occupation}</p>}
                  {partner.interests.length > 0 && <Chips items={partner.interests} label={`${partner.firstName}'s interests`} />}
                </div>
              </li>
            ))}
          </ul>
        </section>

        {recentPosts && (
          <section className={styles.section} aria-labelledby="profile-posts">
            <h2 id="profile-posts">Recent forum posts</h2>
            {recentPosts.length > 0 ? <ol className="stack">{recentPosts}</ol> : <p className={styles.hint}>No forum posts yet.</p>}
          </section>
        )}
      </article>
    </main>
  );
}
