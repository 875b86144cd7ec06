import Link from "next/link";
import styles from "./Moderation.module.css";

/** The moderation pages' own links: the queue, the verification selfies, the log, and for admins the team. */
export function ModerationNav({
  current,
  admin = false,
}: {
  current: "queue" | "verifications" | "log" | "couple" | "team";
  admin?: boolean;
}) {
  return (
    <nav aria-label="Moderation" className={`page-tabs ${styles.nav}`}>
      <Link href="/moderation" aria-current={current === "queue" ? "page" : undefined}>
        Queue
      </Link>
      <Link href="/moderation/verifications" aria-current={current === "verifications" ? "page" : undefined}>
        Photo verification
      </Link>
      <Link href="/moderation/log" aria-current={current === "log" ? "page" : undefined}>
        Log
      </Link>
      {admin && (
        <Link href="/moderation/team" aria-current={current === "team" ? "page" : undefined}>
          Team
        </Link>
      )}
    </nav>
  );
}
