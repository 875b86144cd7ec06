import type { Metadata } from "next";
import Link from "next/link";
import { PostThread } from "@/components/forum/PostThread";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { readThread } from "../../reads";
import styles from "./page.module.css";

export const metadata: Metadata = { title: "Forum Post" };

/** A post and its replies, read on the server; missing, deleted without replies or blocked: 404. */
export default async function ForumPostPage({ params }: { params: Promise<{ postId: string }> }) {
  const { postId } = await params;
  const { userId, couple } = await requireCompleteProfile();
  const thread = await readThread(couple, postId);
  return (
    <main id="main" className={`page ${styles.thread}`}>
      <p>
        {/* Not prefetched: the list is rendered per request (CoupleCard's rule). */}
        <Link href={thread.post.scope === "local" ? "/forum/local" : "/forum"} className="inline-target" prefetch={false}>
          ← Back to the {thread.post.scope === "local" ? "Local" : "Global"} Forum
        </Link>
      </p>
      <PostThread key={thread.post.id} initial={thread} viewer={{ userId, coupleId: couple.coupleId }} />
    </main>
  );
}
