import type { Metadata } from "next";
import { NotificationsList } from "@/components/notifications/NotificationsList";
import { listPageNumber } from "@/lib/notifications/schemas";

export const metadata: Metadata = { title: "Notifications" };

export default async function NotificationsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const page = listPageNumber((await searchParams).page);
  return (
    <main id="main" className="page">
      <h1>Notifications</h1>
      {/* A new key per page: the list loads that page from scratch. */}
      <NotificationsList key={page} page={page} />
    </main>
  );
}
