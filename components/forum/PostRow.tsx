import Link from "next/link";
import { REACTIONS } from "@/lib/forum/rules";
import type { ListedPost } from "@/lib/forum/text";
import { RelativeTime } from "@/components/ui/RelativeTime";
import styles from "./PostRow.module.css";
import { Signature } from "./Signature";
import { Topline } from "./Topline";

/**
 * One post in a list: title, topic, signature, excerpt, replies, reactions, last activity (and
 * distance band). `headingLevel`: 3 under a section's own heading (a profile's recent posts).
 */
export function PostRow({ post, headingLevel = 2 }: { post: ListedPost; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const reacted = REACTIONS.filter(({ kind }) => post.reactions[kind] > 0);
  return (
    <li className="card">
      <article aria-labelledby={`post-${post.id}-title`}>
        <Topline topic={post.topic} distanceBand={post.distanceBand} />
        <Heading id={`post-${post.id}-title`} className={styles.title}>
          {/* Not prefetched, as the directory's cards (CoupleCard): a thread is rendered per request, and a
              prefetch per row on the screen is a request and a parse on a phone's main thread as the list loads. */}
          <Link href={`/forum/post/${encodeURIComponent(post.id)}`} prefetch={false}>
            {post.title}
          </Link>
        </Heading>
        <Signature author={post.author} at={post.createdAt} />
        <p className={styles.excerpt}>{post.excerpt}</p>
        <p className={styles.stats}>
          <span>
            {post.replyCount} {post.replyCount === 1 ? "reply" : "replies"}
          </span>
          {reacted.length > 0 && (
            <span className={styles.reactions}>
              {reacted.map(({ kind, emoji }) => (
                <span key={kind}>
                  <span aria-hidden="true">{emoji}</span> {post.reactions[kind]}
                  <span className="visually-hidden"> {kind}</span>
                </span>
              ))}
            </span>
          )}
          <span>
            Last activity <RelativeTime at={post.lastActivityAt} />
          </span>
        </p>
      </article>
    </li>
  );
}
