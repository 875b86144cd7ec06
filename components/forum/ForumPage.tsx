import type { ReactNode } from "react";
import { forumHref, type ListQuery } from "@/lib/forum/list-href";
import type { PostPage } from "@/lib/forum/client/api";
import { listedPost } from "@/lib/forum/text";
import { ForumControls } from "./ForumControls";
import { PostComposer } from "./PostComposer";
import { PostList } from "./PostList";
import styles from "./ForumPage.module.css";

type Props = { title: string; userId: string; query: ListQuery; first: PostPage; notice?: ReactNode };

/** A forum list page: title and 'New Post', the order tabs and filters, then the posts. */
export function ForumPage({ title, userId, query, first, notice }: Props) {
  const empty = query.q ? `No posts match "${query.q}".` : "No posts here yet. Start the conversation!";
  return (
    <main id="main" className="page">
      <div className={styles.header}>
        <h1>{title}</h1>
        <PostComposer userId={userId} defaultScope={query.scope} />
      </div>
      {notice ?? (
        <>
          <ForumControls query={query} />
          {/* A new address is a new list: the key drops the pages loaded for the old one. */}
          <PostList key={forumHref(query)} query={query} first={{ ...first, data: first.data.map(listedPost) }} empty={empty} />
        </>
      )}
    </main>
  );
}
