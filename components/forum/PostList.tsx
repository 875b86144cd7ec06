"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/Alert";
import { fetchPosts, type PostPage } from "@/lib/forum/client/api";
import type { ListQuery } from "@/lib/forum/list-href";
import { PostRow } from "./PostRow";
import styles from "./PostList.module.css";

/**
 * The first page arrives from the server with the HTML; 'Load more' asks for the next one with
 * the keyset cursor the last answer gave, so rows are neither skipped nor repeated.
 */
export function PostList({ query, first, empty }: { query: ListQuery; first: PostPage; empty: string }) {
  const [posts, setPosts] = useState(first.data);
  const [cursor, setCursor] = useState(first.pagination.hasMore ? first.pagination.nextCursor : null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function loadMore() {
    if (!cursor) return;
    setBusy(true);
    setError(null);
    try {
      const next = await fetchPosts({ ...query, cursor });
      // A row that moved up meanwhile (new activity) may come again: keep its first place.
      setPosts((shown) => [...shown, ...next.data.filter((post) => !shown.some((old) => old.id === post.id))]);
      setCursor(next.pagination.hasMore ? next.pagination.nextCursor : null);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "Could not load more posts");
    } finally {
      setBusy(false);
    }
  }

  if (posts.length === 0) return <p className={styles.empty}>{empty}</p>;
  return (
    <>
      <ol className="stack" aria-label="Posts">
        {posts.map((post) => (
          <PostRow key={post.id} post={post} />
        ))}
      </ol>
      {error && <Alert tone="error">{error}</Alert>}
      {cursor && (
        <p className={styles.more}>
          <button type="button" className="button button-secondary" onClick={loadMore} disabled={busy}>
            {busy ? "Loading..." : "Load more"}
          </button>
        </p>
      )}
    </>
  );
}
