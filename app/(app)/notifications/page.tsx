import type { Metadata } from "next";
import { NotificationsList } from "@/components/notifications/NotificationsList";

export const metadata: Metadata = { title: "Notifications" };

/** ?page=2 and so on; anything that is not a page number shows the first page. */
function pageNumber(value: string | string[] | undefined): number {
  const page = Number(Array.isArray(value) ? value[0] : value);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

export default async function NotificationsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const page = pageNumber((await searchParams).page);
  return (
    <main id="main" className="page">
      <h1>Notifications</h1>
      {/* A new key per page: the list loads that page from scratch. */}
      <NotificationsList key={page} page={page} />
    </main>
  );
}
