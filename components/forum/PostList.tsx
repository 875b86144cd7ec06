"use client";

import { LoadMore } from "@/components/ui/LoadMore";
import { useLoadMore } from "@/components/ui/useLoadMore";
import { fetchPosts } from "@/lib/forum/client/api";
import type { ListQuery } from "@/lib/forum/list-href";
import { listedPost, type ListedPost } from "@/lib/forum/text";
import { nextCursorOf, type KeysetPage } from "@/lib/pagination/page";
import { PostRow } from "./PostRow";
import styles from "./PostList.module.css";

/**
 * The first page arrives from the server with the HTML; 'Load more' asks for the next one with
 * the keyset cursor the last answer gave, so rows are neither skipped nor repeated (a row that
 * moved up meanwhile, with new activity, keeps its first place).
 */
export function PostList({ query, first, empty }: { query: ListQuery; first: KeysetPage<ListedPost>; empty: string }) {
  const { attachList, ...list } = useLoadMore({
    firstCursor: nextCursorOf(first),
    firstIds: first.data.map((post) => post.id),
    load: (cursor) => fetchPosts({ ...query, cursor }).then((page) => ({ ...page, data: page.data.map(listedPost) })),
    idOf: (post) => post.id,
    failed: "Could not load more posts",
  });
  const posts = [...first.data, ...list.more];

  if (posts.length === 0) return <p className={styles.empty}>{empty}</p>;
  return (
    <>
      <ol className="stack" aria-label="Posts" ref={attachList}>
        {posts.map((post) => (
          <PostRow key={post.id} post={post} />
        ))}
      </ol>
      <LoadMore list={list} className={styles.more} />
    </>
  );
}
