import Link from "next/link";

/** The moderation pages' own links: the queue and the log. */
export function ModerationNav({ current }: { current: "queue" | "log" | "couple" }) {
  return (
    <nav aria-label="Moderation" className="form-actions">
      <Link href="/moderation" aria-current={current === "queue" ? "page" : undefined}>
        Queue
      </Link>
      <Link href="/moderation/log" aria-current={current === "log" ? "page" : undefined}>
        Log
      </Link>
    </nav>
  );
}
