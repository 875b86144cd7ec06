import type { Metadata } from "next";
import Link from "next/link";
import { ForumPage } from "@/components/forum/ForumPage";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { FORUM_TEXTS, PAGE_SIZE_DEFAULT } from "@/lib/forum/rules";
import { pageListQuery } from "@/lib/forum/list-query";
import { emptyPage } from "@/lib/pagination/page";
import { readLocalPosts } from "../reads";

export const metadata: Metadata = { title: "Local Forum" };

/** Local posts within the chosen radius of the couple's location, nearest first or latest. */
export default async function LocalForumPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { userId, couple } = await requireCompleteProfile();
  const query = pageListQuery("local", await searchParams);
  const first = await readLocalPosts(couple, query);
  const notice = first ? undefined : (
    <p className="alert alert-info">
      <Link href="/settings">{FORUM_TEXTS.noLocation}</Link>
    </p>
  );
  return <ForumPage title="Local Forum" userId={userId} query={query} first={first ?? emptyPage(PAGE_SIZE_DEFAULT)} notice={notice} />;
}
