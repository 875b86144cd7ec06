"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import type { FormEvent } from "react";
import { COUPLE_TYPES } from "@/lib/couples/rules";
import {
  DIRECTORY_SORTS,
  DIRECTORY_TEXTS,
  DISTANCE_OPTIONS,
  directoryHref,
  pageFilters,
  SORT_LABELS,
  type DirectoryFilters as Filters,
} from "@/lib/directory/rules";
import { BUILT_IN_INTEREST_CATEGORIES } from "@/lib/interests/catalogue";
import styles from "./DirectoryFilters.module.css";

/**
 * The directory's search and filters: one GET form, so it works before any script has loaded
 * (the page reads repeated names too); with scripts, 'Apply filters' goes to the canonical
 * address (`interests=a,b`), the same parameter names as the API. Without a location of the
 * viewer's own, the distance filter and the nearest sort are disabled with a hint.
 */
export function DirectoryFilters({ filters, hasLocation }: { filters: Filters; hasLocation: boolean }) {
  const router = useRouter();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const params: Record<string, string | string[]> = {};
    for (const key of ["q", "verified", "distance", "sort"]) {
      const value = data.get(key);
      if (typeof value === "string") params[key] = value;
    }
    params.interests = data.getAll("interests").map(String);
    params.styles = data.getAll("styles").map(String);
    router.push(directoryHref(pageFilters(params, hasLocation), hasLocation));
  }

  return (
    <form className={styles.filters} method="get" action="/directory" role="search" aria-label="Filter couples" onSubmit={submit}>
      <div className="field">
        <label htmlFor="directory-q">Search by name or city</label>
        <input id="directory-q" name="q" type="search" defaultValue={filters.q ?? ""} maxLength={100} />
      </div>
      <div className={styles.row}>
        <div className="field">
          <label htmlFor="directory-distance">Distance</label>
          <select
            id="directory-distance"
            name="distance"
            defaultValue={filters.distance ? String(filters.distance) : ""}
            disabled={!hasLocation}
            aria-describedby={hasLocation ? undefined : "directory-location-hint"}
          >
            {DISTANCE_OPTIONS.map((option) => (
              <option key={option.label} value={option.value ?? ""}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="directory-sort">Sort by</label>
          <select id="directory-sort" name="sort" defaultValue={filters.sort}>
            {DIRECTORY_SORTS.map((sort) => (
              <option key={sort} value={sort} disabled={sort === "nearest" && !hasLocation}>
                {SORT_LABELS[sort]}
              </option>
            ))}
          </select>
        </div>
        <label className="choice">
          <input type="checkbox" name="verified" value="1" defaultChecked={filters.verified} />
          Verified couples only
        </label>
      </div>
      {!hasLocation && (
        <p className={styles.hint} id="directory-location-hint">
          {DIRECTORY_TEXTS.noLocation} <Link href="/settings/location">Set your location</Link>
        </p>
      )}
      <details className={styles.more} open={filters.styles.length > 0 || undefined}>
        <summary>Adventure styles{filters.styles.length > 0 && ` (${filters.styles.length} chosen)`}</summary>
        <fieldset className={styles.options} aria-label="Adventure styles">
          {COUPLE_TYPES.map((type) => (
            <label key={type.value} className="choice">
              <input type="checkbox" name="styles" value={type.value} defaultChecked={filters.styles.includes(type.value)} />
              {type.label}
            </label>
          ))}
        </fieldset>
      </details>
      <details className={styles.more} open={filters.interests.length > 0 || undefined}>
        <summary>Interests{filters.interests.length > 0 && ` (${filters.interests.length} chosen)`}</summary>
        {Object.entries(BUILT_IN_INTEREST_CATEGORIES).map(([category, items]) => (
          <fieldset key={category} className={styles.options}>
            <legend>{category}</legend>
            {items.map((item) => (
              <label key={item.value} className="choice">
                <input type="checkbox" name="interests" value={item.value} defaultChecked={filters.interests.includes(item.value)} />
                {item.label}
              </label>
            ))}
          </fieldset>
        ))}
      </details>
      <div className={styles.actions}>
        <button type="submit" className="button button-primary">
          Apply filters
        </button>
        <Link href="/directory" className="button button-secondary">
          {DIRECTORY_TEXTS.clear}
        </Link>
      </div>
    </form>
  );
}
