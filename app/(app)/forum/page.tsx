import type { Metadata } from "next";
import { ForumPage } from "@/components/forum/ForumPage";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { pageListQuery } from "@/lib/forum/list-query";
import { readPosts } from "./reads";

export const metadata: Metadata = { title: "Global Forum" };

/** Posts of every discoverable couple; order, topic and search live in the address. */
export default async function GlobalForumPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { userId, couple } = await requireCompleteProfile();
  const query = pageListQuery("global", await searchParams);
  return <ForumPage title="Global Forum" userId={userId} query={query} first={await readPosts(couple, query)} />;
}
