import type { Metadata } from "next";
import Link from "next/link";
import { DirectoryFilters } from "@/components/directory/DirectoryFilters";
import { DirectoryList } from "@/components/directory/DirectoryList";
import { DirectoryMap } from "@/components/directory/DirectoryMap";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { viewerCouple } from "@/lib/couples/queries";
import { listDirectory, shownDirectoryCard, viewerCentre } from "@/lib/directory/queries";
import { DIRECTORY_PAGE_DEFAULT, DIRECTORY_TEXTS, directoryHref, directoryView, hasFilters, pageFilters } from "@/lib/directory/rules";
import { withDb } from "@/lib/with-db";
import styles from "./page.module.css";

export const metadata: Metadata = { title: "Directory" };

/**
 * Every couple the viewer may see, searchable, as cards or on a map. Rendered on the server with
 * its first page (the map loads its own points and code only when opened); the filters live in
 * the address under the API's own names, and an unknown value there is ignored rather than an
 * error page.
 */
export default async function DirectoryPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { userId } = await requireCompleteProfile();
  const params = await searchParams;
  const view = directoryView(params);
  const { filters, first, hasLocation } = await withDb(async (db) => {
    const viewer = await viewerCouple(db, userId);
    const hasLocation = viewerCentre(viewer) !== null;
    const filters = pageFilters(params, hasLocation);
    const first = view === "list" ? await listDirectory(db, userId, { ...filters, limit: DIRECTORY_PAGE_DEFAULT }, { viewer }) : null;
    return { filters, first, hasLocation };
  });
  const href = directoryHref(filters, hasLocation, view);
  return (
    <main id="main" className="page">
      <h1>Directory</h1>
      <p className="page-lead">Couples like you, near and far.</p>
      {/* A new address is a new form and a new list: the keys drop the state of the old ones. */}
      <DirectoryFilters key={`filters:${href}`} filters={filters} hasLocation={hasLocation} view={view} />
      {first === null ? (
        <DirectoryMap key={`map:${href}`} filters={filters} />
      ) : first.data.length === 0 ? (
        <div className={styles.empty} role="status">
          <p>{DIRECTORY_TEXTS.empty}</p>
          {hasFilters(filters) && (
            <Link href="/directory" className="button button-secondary">
              {DIRECTORY_TEXTS.clear}
            </Link>
          )}
        </div>
      ) : (
        <DirectoryList
          key={`list:${href}`}
          filters={filters}
          first={first.data.map(shownDirectoryCard)}
          nextCursor={first.pagination.hasMore ? first.pagination.nextCursor : null}
        />
      )}
    </main>
  );
}
