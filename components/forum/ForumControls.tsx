import Link from "next/link";
import { FORUM_SORTS, FORUM_TOPICS, LOCAL_RADII_KM, topicLabel, type ForumSort } from "@/lib/forum/rules";
import { forumHref, type ListQuery } from "@/lib/forum/list-href";
import { SelectField } from "@/components/ui/SelectField";
import styles from "./ForumControls.module.css";

const TOPIC_OPTIONS = [{ value: "", label: "All topics" }, ...FORUM_TOPICS];
const RADIUS_OPTIONS = LOCAL_RADII_KM.map((km) => ({ value: km, label: `Within ${km} km` }));
const GLOBAL_SORTS: readonly ForumSort[] = ["latest", "new", "top"];
const LOCAL_SORTS: readonly ForumSort[] = ["nearest", "latest"];

/** What the list shows now, in a line: the collapsed controls' summary on a phone. */
function currentChoice(query: ListQuery): string {
  const parts = [FORUM_SORTS.find((s) => s.value === query.sort)!.label, query.topic ? topicLabel(query.topic) : "All topics"];
  if (query.scope === "local" && query.radius !== undefined) parts.push(`Within ${query.radius} km`);
  if (query.q) parts.push(`“${query.q}”`);
  return parts.join(" · ");
}

/**
 * The order tabs (links, so each order has its address), then one GET form for topic, search and
 * (local) radius: it works before any script has loaded and keeps the order it was opened with.
 * On a phone they fold into one 'Sort and filter' line naming the current choice, so the first
 * post is in the first screen; a wider screen always shows them (a disclosure, no script needed).
 */
export function ForumControls({ query }: { query: ListQuery }) {
  const sorts = query.scope === "local" ? LOCAL_SORTS : GLOBAL_SORTS;
  return (
    <details className={styles.fold}>
      <summary className={styles.summary}>
        <span className={styles.summaryLabel}>Sort and filter</span>
        <span className={styles.summaryChoice}>{currentChoice(query)}</span>
      </summary>
      <div className={styles.controls}>
        <nav aria-label="Order">
          <ul className="page-tabs">
            {sorts.map((sort) => (
              <li key={sort}>
                <Link href={forumHref({ ...query, sort, cursor: undefined })} aria-current={query.sort === sort ? "page" : undefined}>
                  {FORUM_SORTS.find((s) => s.value === sort)!.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <form className={styles.filters} method="get" action={query.scope === "local" ? "/forum/local" : "/forum"} role="search">
          <input type="hidden" name="sort" value={query.sort} />
          <SelectField label="Topic" id="forum-topic" name="topic" defaultValue={query.topic ?? ""} options={TOPIC_OPTIONS} />
          {query.scope === "local" && (
            <SelectField label="Distance" id="forum-radius" name="radius" defaultValue={String(query.radius)} options={RADIUS_OPTIONS} />
          )}
          <div className={`field ${styles.search}`}>
            <label htmlFor="forum-q">Search posts</label>
            <input id="forum-q" name="q" type="search" defaultValue={query.q ?? ""} maxLength={200} />
          </div>
          <button type="submit" className="button button-secondary">
            Search
          </button>
        </form>
      </div>
    </details>
  );
}
