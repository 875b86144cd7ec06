import Link from "next/link";
import { REACTIONS } from "@/lib/forum/rules";
import type { ListedPost } from "@/lib/forum/text";
import { RelativeTime } from "@/components/ui/RelativeTime";
import styles from "./PostRow.module.css";
import { Signature } from "./Signature";
import { Topline } from "./Topline";

/** One post in a list: title, topic, signature, excerpt, replies, reactions, last activity (and distance band). */
export function PostRow({ post }: { post: ListedPost }) {
  const reacted = REACTIONS.filter(({ kind }) => post.reactions[kind] > 0);
  return (
    <li className="card">
      <article aria-labelledby={`post-${post.id}-title`}>
        <Topline topic={post.topic} distanceBand={post.distanceBand} />
        <h2 id={`post-${post.id}-title`} className={styles.title}>
          <Link href={`/forum/post/${encodeURIComponent(post.id)}`}>{post.title}</Link>
        </h2>
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
