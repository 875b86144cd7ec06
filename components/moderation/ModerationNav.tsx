import Link from "next/link";

/** The moderation pages' own links: the queue, the verification selfies and the log. */
export function ModerationNav({ current }: { current: "queue" | "verifications" | "log" | "couple" }) {
  return (
    <nav aria-label="Moderation" className="form-actions">
      <Link href="/moderation" aria-current={current === "queue" ? "page" : undefined}>
        Queue
      </Link>
      <Link href="/moderation/verifications" aria-current={current === "verifications" ? "page" : undefined}>
        Photo verification
      </Link>
      <Link href="/moderation/log" aria-current={current === "log" ? "page" : undefined}>
        Log
      </Link>
    </nav>
  );
}
