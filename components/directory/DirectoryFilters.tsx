"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState, type FormEvent } from "react";
import { Dialog } from "@/components/ui/Dialog";
import { SelectField } from "@/components/ui/SelectField";
import { COUPLE_TYPES } from "@/lib/couples/rules";
import { fetchDirectoryCount } from "@/lib/directory/client/api";
import {
  activeFilters,
  countText,
  defaultSort,
  DIRECTORY_SEARCH_MAX,
  DIRECTORY_SORTS,
  DIRECTORY_TEXTS,
  DISTANCE_OPTIONS,
  directoryHref,
  filterParams,
  pageFilters,
  SORT_LABELS,
  type DirectoryFilters as Filters,
  type DirectoryView,
} from "@/lib/directory/rules";
import { BUILT_IN_INTEREST_CATEGORIES } from "@/lib/interests/catalogue";
import styles from "./DirectoryFilters.module.css";

type Props = { filters: Filters; hasLocation: boolean; view: DirectoryView };

/**
 * The directory's search, its filters in a sheet, and the active filters as removable chips. The
 * search is a GET form (it works before any script loads); 'Filters' opens a sheet whose 'Show N
 * couples' names the live count of what the choices match (GET /api/directory/count) and closes it
 * on the new list. Every address uses the API's own parameter names.
 */
export function DirectoryFilters({ filters, hasLocation, view }: Props) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(filters);
  const [count, setCount] = useState<{ count: number; more: boolean } | null>(null);
  const href = (chosen: Filters) => directoryHref(chosen, hasLocation, view);
  const chips = activeFilters(filters, hasLocation);

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    // A short pause, so ticking several boxes asks once.
    const timer = setTimeout(() => {
      fetchDirectoryCount(draft, controller.signal).then(
        (answer) => setCount(answer.data),
        () => setCount(null),
      );
    }, 200);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [open, draft]);

  function read(form: HTMLFormElement): Filters {
    const data = new FormData(form);
    const params: Record<string, string | string[]> = {};
    for (const key of ["verified", "photoVerified", "distance", "sort"]) {
      const value = data.get(key);
      if (typeof value === "string") params[key] = value;
    }
    params.interests = data.getAll("interests").map(String);
    params.styles = data.getAll("styles").map(String);
    if (filters.q) params.q = filters.q;
    return pageFilters(params, hasLocation);
  }

  function search(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const q = new FormData(event.currentTarget).get("q");
    router.push(href(pageFilters({ ...Object.fromEntries(filterParams(filters)), q: typeof q === "string" ? q : "" }, hasLocation)));
  }

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setOpen(false);
    router.push(href(read(event.currentTarget)));
  }

  const shown = count === null ? "Show couples" : count.count === 0 && !count.more ? "No couples match" : `Show ${countText(count)}`;
  return (
    <div className={styles.toolbar}>
      <form className={styles.search} method="get" action="/directory" role="search" aria-label="Search couples" onSubmit={search}>
        <label htmlFor="directory-q" className="visually-hidden">
          Search by name or city
        </label>
        <span className={`field ${styles.searchField}`}>
          <input
            id="directory-q"
            name="q"
            type="search"
            placeholder="Search by name or city"
            defaultValue={filters.q ?? ""}
            maxLength={DIRECTORY_SEARCH_MAX}
          />
        </span>
        <button type="submit" className="button button-secondary">
          Search
        </button>
      </form>
      <div className={styles.row}>
        <button
          type="button"
          className="button button-secondary"
          aria-haspopup="dialog"
          onClick={() => {
            setDraft(filters);
            setCount(null);
            setOpen(true);
          }}
        >
          Filters{chips.length > 0 && ` (${chips.length})`}
        </button>
        <nav className={styles.views} aria-label="Directory view">
          <Link href={directoryHref(filters, hasLocation, "list")} aria-current={view === "list" ? "page" : undefined}>
            List
          </Link>
          <Link href={directoryHref(filters, hasLocation, "map")} aria-current={view === "map" ? "page" : undefined}>
            Map
          </Link>
        </nav>
      </div>
      {chips.length > 0 && (
        <ul className={styles.chips} aria-label="Active filters">
          {chips.map((chip) => (
            <li key={chip.key}>
              <Link href={href(chip.without)} className={styles.chip} aria-label={`Remove filter: ${chip.label}`}>
                {chip.label}
                <span aria-hidden="true"> ×</span>
              </Link>
            </li>
          ))}
          <li>
            <Link
              href={directoryHref({ ...filters, ...CLEARED, sort: defaultSort(hasLocation) }, hasLocation, view)}
              className={styles.clear}
            >
              {DIRECTORY_TEXTS.clear}
            </Link>
          </li>
        </ul>
      )}
      {/* The sheet is rendered while open only: closed, it is nothing a reader or a script without
          'Filters' can reach, and every page of the directory would render and hydrate its ~60
          fields. Each opening starts from the filters in force, as its count does (setDraft). */}
      {open && (
        <Dialog open onClose={() => setOpen(false)} title="Filters" closeButton className={styles.sheet}>
          <form
            className={styles.form}
            method="get"
            action="/directory"
            onSubmit={apply}
            onChange={(event) => {
              // The count of the old choices is not the count of these: the button waits for theirs.
              setCount(null);
              setDraft(read(event.currentTarget));
            }}
          >
            {filters.q && <input type="hidden" name="q" value={filters.q} />}
            <div className={styles.fields}>
              <SelectField
                label="Distance"
                id="directory-distance"
                name="distance"
                defaultValue={filters.distance ? String(filters.distance) : ""}
                disabled={!hasLocation}
                aria-describedby={hasLocation ? undefined : "directory-location-hint"}
                options={DISTANCE_OPTIONS.map((option) => ({ value: option.value ?? "", label: option.label }))}
              />
              <SelectField
                label="Sort by"
                id="directory-sort"
                name="sort"
                defaultValue={filters.sort}
                options={DIRECTORY_SORTS.map((sort) => ({
                  value: sort,
                  label: SORT_LABELS[sort],
                  disabled: sort === "nearest" && !hasLocation,
                }))}
              />
              {!hasLocation && (
                <p className={styles.hint} id="directory-location-hint">
                  {DIRECTORY_TEXTS.noLocation} <Link href="/settings/location">Set your location</Link>
                </p>
              )}
              <label className="choice">
                <input type="checkbox" name="verified" value="1" defaultChecked={filters.verified} />
                Verified couples only
              </label>
              <label className="choice">
                <input type="checkbox" name="photoVerified" value="1" defaultChecked={filters.photoVerified} />
                Photo verified
              </label>
              <fieldset className={styles.options}>
                <legend>Adventure styles</legend>
                {COUPLE_TYPES.map((type) => (
                  <label key={type.value} className="choice">
                    <input type="checkbox" name="styles" value={type.value} defaultChecked={filters.styles.includes(type.value)} />
                    {type.label}
                  </label>
                ))}
              </fieldset>
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
            </div>
            <div className={styles.footer}>
              <button type="submit" className="button button-primary">
                {shown}
              </button>
              <p role="status" className="visually-hidden">
                {count === null ? "" : `${countText(count)} match.`}
              </p>
            </div>
          </form>
        </Dialog>
      )}
    </div>
  );
}

const CLEARED = { q: undefined, interests: [], styles: [], verified: false, photoVerified: false, distance: undefined };
