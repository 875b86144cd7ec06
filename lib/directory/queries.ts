import "server-only";
import { and, asc, desc, eq, gt, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { literalLimit, runAsShape } from "@/db/prepared";
import { couples, locations } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { coupleCard, type CoupleCard } from "@/lib/couples/card";
import { viewerCouple, type ViewerCouple } from "@/lib/couples/queries";
import { standingOf, standingSql } from "@/lib/connections/states";
import { listedPlaceColumns } from "@/lib/locations/place";
import { ownCentre, shownCoordinates, type ListedPlace } from "@/lib/locations/privacy";
import { cursorAfter, readCursor } from "@/lib/pagination/cursor";
import { keysetPage, type KeysetPage } from "@/lib/pagination/page";
import { seenByOther } from "@/lib/safety/visibility";
import { COMMON_STORED, commonCount, commonRanking, reachesFloor, sharedMask, viewerMask } from "./common";
import { openingArea } from "./map";
import { kmOfChord, nearestCouples, nearestSql, shownPoint } from "./nearest";
import {
  cursorContext,
  defaultSort,
  directoryBand,
  DIRECTORY_MAP_MAX,
  DIRECTORY_TEXTS,
  searchNarrowed,
  searchWords,
  type DirectoryFilters,
} from "./rules";
import { directoryShape, type DirectoryShapeInput, type DirectoryStatement } from "./shapes";
import type { DirectoryQuery } from "./schemas";

export type DirectoryCard = CoupleCard & {
  /** Between the shown points; null when either place is hidden, country-level or unknown. */
  distanceBand: string | null;
  interestsInCommon: number;
};

export type DirectoryPage = KeysetPage<DirectoryCard>;

/** What a directory card shows (components/directory/CoupleCard): the page sends the browser no more (not the couple's styles). */
export type ShownDirectoryCard = Omit<DirectoryCard, "coupleTypes">;

export const shownDirectoryCard = ({ coupleTypes: _coupleTypes, ...shown }: DirectoryCard): ShownDirectoryCard => shown;

/**
 * The directory's cursors are sealed (lib/pagination/cursor.ts): their sort keys say more than a
 * page shows (under nearest the exact distance from the viewer's own place to the last couple's
 * point, from which pages read from several places would locate it; under newest the moment a
 * couple joined), so a browser holds them as opaque tokens.
 */
const CURSOR_FORM = "sealed";

/**
 * Under "nearest", the cursor's sort key is the last couple's chord (never negative) while the list
 * is in its couples with a shown point, then UNMEASURED in those without.
 */
const UNMEASURED = -1;

/**
 * The most matches of a search a page orders as they are; a search matching more reads its sort's
 * index. Sorting a few hundred costs a few milliseconds wherever they are, while a walk reads the
 * couples between the viewer and the matches (a name matched far away walks much of the network):
 * where the trigram index narrows every word (searchNarrowed) the probe reads matches only, and
 * takes up to 300; a word it cannot narrow is checked row by row, and the probe stops at 100.
 */
const SEARCH_MATCHES_SORTED = { narrowed: 300, checkedRowByRow: 100 };

/**
 * The ids of a search's matches when there are at most so many of them (SEARCH_MATCHES_SORTED), else null.
 * A sort's index walk stops after a page of matches only where matches are dense: a name matching
 * a few couples far away, or long ago (or fewer than a page), would walk the whole network. Read
 * from the search's trigram index (or, for a word it cannot narrow, the first rows of the table), and only so many.
 */
async function fewMatches(db: Db, filtered: SQL | undefined, words: string[]): Promise<string[] | null> {
  const most = words.every(searchNarrowed) ? SEARCH_MATCHES_SORTED.narrowed : SEARCH_MATCHES_SORTED.checkedRowByRow;
  const matches = await db
    .select({ id: couples.id })
    .from(couples)
    .where(filtered)
    .limit(most + 1);
  return matches.length > most ? null : matches.map((match) => match.id);
}

const locationRequired = () => new AppError("LOCATION_REQUIRED", DIRECTORY_TEXTS.locationRequired);

/** The viewer's own place (ownCentre): the centre distances are measured from. */
export function viewerCentre(viewer: ViewerCouple | null): { lat: number; lng: number } | null {
  const place = viewer?.place;
  return place ? ownCentre(place.privacyLevel, place.latitude, place.longitude) : null;
}

type DirectoryWhere = Omit<DirectoryQuery, "cursor" | "limit">;

/**
 * What a directory query reads, whatever it returns (a page, a count): the viewer's centre and
 * sort, and the SQL of the couples matching the filters: `visible`, the rule of who may see a couple
 * alone; `filtered`, every filter but the distance; `matching`, all of them.
 */
function directoryScope(viewer: ViewerCouple | null, query: DirectoryWhere) {
  const centre = viewerCentre(viewer);
  if (!centre && (query.distance !== undefined || query.sort === "nearest")) throw locationRequired();
  const near = centre ? nearestSql(centre) : null;
  const visible = seenByOther({ coupleId: viewer?.id ?? null });
  const filtered = and(
    visible,
    ...searchWords(query.q).map((word) => sql`${couples.searchText} ilike ${`%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`),
    query.interests.length ? sql`${couples.matchInterests} && ${sql.param(query.interests)}::text[]` : undefined,
    query.styles.length ? sql`${couples.coupleTypes} && ${sql.param(query.styles)}::text[]` : undefined,
    query.verified ? and(eq(couples.partnerAVerified, true), eq(couples.partnerBVerified, true)) : undefined,
    // Newest first, couples_discoverable_photo_verified_idx holds exactly these couples in order.
    query.photoVerified ? gt(couples.photoVerifiedPartners, 0) : undefined,
  );
  const matching = and(filtered, near && query.distance !== undefined ? and(near.hasPoint, near.within(query.distance)) : undefined);
  return { sort: query.sort ?? defaultSort(centre !== null), near, visible, filtered, matching };
}

/** What says a directory statement's shape (./shapes.ts): the filters in force, not their values. */
function shapeInput(
  statement: DirectoryStatement,
  viewer: ViewerCouple | null,
  centre: boolean,
  query: DirectoryWhere & { limit: number | null },
  continued = false,
): DirectoryShapeInput {
  return {
    statement,
    viewerCouple: viewer !== null,
    centre,
    search: searchWords(query.q).length > 0,
    interests: query.interests.length > 0,
    styles: query.styles.length > 0,
    verified: query.verified,
    photoVerified: query.photoVerified,
    distance: query.distance !== undefined,
    after: continued,
    viewerInterests: (viewer?.interests.flat().length ?? 0) > 0,
    limit: query.limit,
  };
}

/** The most a count counts: past it, the filter sheet says '1,000+'. */
export const DIRECTORY_COUNT_MAX = 1000;

/**
 * How many couples the filters match, up to DIRECTORY_COUNT_MAX (`GET /api/directory/count`, the
 * filter sheet's 'Show N couples'): the same conditions as a page, read until the cap, so a count
 * costs no more at a million couples than at a thousand.
 */
export async function countDirectory(db: Db, viewerUserId: string, query: DirectoryWhere): Promise<{ count: number; more: boolean }> {
  const viewer = await viewerCouple(db, viewerUserId);
  const { near, matching } = directoryScope(viewer, query);
  const capped = db
    .select({ id: couples.id })
    .from(couples)
    .leftJoin(locations, and(eq(locations.entityType, "couple"), eq(locations.entityId, couples.id)))
    .where(matching)
    .limit(literalLimit(DIRECTORY_COUNT_MAX + 1))
    .as("capped");
  const [row] = await runAsShape(
    db,
    directoryShape(shapeInput("count", viewer, near !== null, { ...query, limit: null })),
    db.select({ count: sql<number>`count(*)::int` }).from(capped),
  );
  const count = Number(row?.count ?? 0);
  return { count: Math.min(count, DIRECTORY_COUNT_MAX), more: count > DIRECTORY_COUNT_MAX };
}

/**
 * A page of the directory (`GET /api/directory`): the couples the viewer may see
 * (lib/safety/visibility.ts: discoverable, never the viewer's own nor one blocked either way),
 * searched by every word typed (in the couple name, a partner's first name or the shown place: couples.search_text), filtered by interests (any of), adventure styles (any of), verified badge, photo verified and distance
 * band, sorted nearest (the default with a place of one's own), newest (without one) or most in common. Keyset pagination on (sort key, id) with a
 * sealed cursor: no OFFSET, no repeats, no gaps. Distances are measured to shown points and leave only as bands (under
 * nearest the cursor holds the last card's chord, sealed).
 *
 * Each sort reads an index in its order and stops after the page: newest walks
 * couples_discoverable_newest_idx, nearest walks the distinct shown points (couple_shown_points,
 * KNN) and each point's couples by id (locations_couple_shown_point_id_idx; then the couples without
 * a shown point, by id), an interest filter may start from
 * couples_discoverable_interests_idx and a search from couples_discoverable_search_trgm_idx
 * (a search matching at most SEARCH_MATCHES_SORTED couples is sorted whole under any sort, never walked).
 * 'Most in common' lists the couples sharing one of the viewer's interests by how many, then those
 * sharing none by id; its first pages rank the viewer's kept ranking and the couples changed since
 * (./common.ts), deeper ones every couple sharing an interest (an index-only scan of
 * couples_discoverable_common_idx reading each interest mask).
 */
export async function listDirectory(
  db: Db,
  viewerUserId: string,
  query: DirectoryQuery,
  known?: { viewer: ViewerCouple | null },
): Promise<DirectoryPage> {
  return readDirectory(db, viewerUserId, query, known, () => ({}));
}

/** A couple on the directory's map: its card at its shown point (the privacy level's, never finer). */
export type MapCard = DirectoryCard & { point: { lat: number; lng: number } };

/**
 * The directory's map (`GET /api/directory/map`): the first DIRECTORY_MAP_MAX couples of the list
 * for the same filters, those with a shown point, each at it; `more` when the list goes on.
 */
export type DirectoryMapAnswer = { data: MapCard[]; more: boolean; area: [number, number, number, number] | null };

/**
 * `GET /api/directory/map`: the list's first couples for the same filters at their shown points,
 * and the area the map opens on (openingArea: around the viewer's own place, on the city grid so
 * even their own browser gets no finer point than a city-level place shows).
 */
export async function listDirectoryMap(db: Db, viewerUserId: string, query: DirectoryWhere): Promise<DirectoryMapAnswer> {
  const viewer = await viewerCouple(db, viewerUserId);
  const page = await readDirectory(db, viewerUserId, { ...query, limit: DIRECTORY_MAP_MAX }, { viewer }, (row) => ({
    point: row.place?.id ? shownCoordinates(row.place.privacyLevel, row.place.latitude, row.place.longitude) : null,
  }));
  const data = page.data.flatMap(({ point, ...card }) => (point ? [{ ...card, point }] : []));
  const centre = viewerCentre(viewer);
  return {
    data,
    more: page.pagination.hasMore,
    area: openingArea(centre && shownCoordinates("city", centre.lat, centre.lng), data),
  };
}

async function readDirectory<Extra extends object>(
  db: Db,
  viewerUserId: string,
  query: DirectoryQuery,
  known: { viewer: ViewerCouple | null } | undefined,
  extra: (row: { place: ListedPlace | null }) => Extra,
): Promise<KeysetPage<DirectoryCard & Extra>> {
  const viewer = known ? known.viewer : await viewerCouple(db, viewerUserId);
  const { sort, near, visible, filtered, matching } = directoryScope(viewer, query);
  const filters: DirectoryFilters = {
    q: query.q,
    interests: query.interests,
    styles: query.styles,
    verified: query.verified,
    photoVerified: query.photoVerified,
    distance: query.distance,
    sort,
  };
  const context = cursorContext(filters, viewer?.id ?? null);
  const after = readCursor(context, query.cursor, DIRECTORY_TEXTS.cursorInvalid, CURSOR_FORM);
  const words = searchWords(query.q);
  const few = words.length > 0 ? await fewMatches(db, filtered, words) : null;
  /** The distance filter alone: for couples already narrowed (a search's few, the nearest walk's page). */
  const inRadius = near && query.distance !== undefined ? and(near.hasPoint, near.closerThan(query.distance)) : undefined;
  /**
   * The couples a page may hold: a search's few matches (their words and filters matched already;
   * who may see them checked again in the page's own statement), else every couple the filters match.
   */
  const candidates = few ? and(sql`${couples.id} = any(${sql.param(few)}::uuid[])`, visible, inRadius) : matching;

  const mine = [...new Set(viewer?.interests.flat() ?? [])];
  const mineMask = viewerMask(mine);
  const shared = sharedMask(mineMask);
  const common = commonCount(mineMask);
  const createdMicros = sql<string>`(extract(epoch from ${couples.createdAt}) * 1000000)::bigint`;
  /**
   * The statement's name (./shapes.ts): every value below is a parameter, so the filters in force,
   * the statement and whether it continues a cursor say which SQL it is.
   */
  const shape = (statement: DirectoryStatement, continued: boolean) =>
    directoryShape(shapeInput(statement, viewer, near !== null, query, continued));
  /**
   * A page of cards: `where` is the whole condition (`matching` or narrower). The page's size
   * (`query.limit + 1`) is the statement's: a part that has less room left takes its first rows.
   */
  const select = (statement: DirectoryStatement, continued: boolean, where: SQL | undefined, order: SQL[], room = query.limit + 1) =>
    runAsShape(
      db,
      shape(statement, continued),
      db
        .select({
          id: couples.id,
          coupleName: couples.coupleName,
          profileImageUrl: couples.profileImageUrl,
          coupleTypes: couples.coupleTypes,
          status: couples.status,
          partnerAVerified: couples.partnerAVerified,
          partnerBVerified: couples.partnerBVerified,
          photoVerifiedPartners: couples.photoVerifiedPartners,
          createdMicros,
          place: listedPlaceColumns,
          chord: near ? sql<number | null>`${near.chord}` : sql<null>`null`,
          common,
          // Where the viewer's couple stands with each card's, in the page's own statement.
          standing: standingSql(sql`${viewer?.id ?? null}::uuid`, sql`${couples.id}`),
        })
        .from(couples)
        .leftJoin(locations, and(eq(locations.entityType, "couple"), eq(locations.entityId, couples.id)))
        .where(where)
        .orderBy(...order)
        .limit(literalLimit(query.limit + 1)),
    ).then((rows) => rows.slice(0, room));

  type Row = Awaited<ReturnType<typeof select>>[number];
  let rows: Row[];
  let lastKey: (row: Row) => number;
  if (sort === "nearest" && near) {
    // Couples with a shown point, nearest first, then, unless a distance is required, those
    // without one by id. The cursor carries the last couple's chord as it was measured, so a
    // couple that moves, hides its place or leaves between two pages moves no page's start: no
    // couple is skipped. It is sealed (CURSOR_FORM), as a card shows a band, never the distance.
    let measured: Row[] = [];
    if (after?.sortKey !== UNMEASURED) {
      const cursor = after ? { chord: after.sortKey as number, id: after.id } : undefined;
      const keyset = and(near.hasPoint, cursor ? near.pastCursor(cursor) : undefined);
      const size = query.limit + 1;
      // The nearest walk (nearestCouples: distinct shown points, each point's couples by id), so a
      // crowd at one point costs a page no more than its page. A search's few matches need no walk.
      const walked = few ? undefined : nearestCouples(db, near, { among: filtered, size, after: cursor, km: query.distance });
      measured = await select("nearest-measured", !!cursor, and(few ? candidates : and(filtered, walked, inRadius), keyset), [
        asc(near.chord),
        asc(couples.id),
      ]);
    }
    let unmeasured: Row[] = [];
    const room = query.limit + 1 - measured.length;
    if (room > 0 && query.distance === undefined) {
      const keyset = after?.sortKey === UNMEASURED ? sql`${couples.id} > ${after.id}::uuid` : undefined;
      unmeasured = await select(
        "nearest-unmeasured",
        !!keyset,
        and(candidates, sql`${shownPoint} is null`, keyset),
        [asc(couples.id)],
        room,
      );
    }
    rows = [...measured, ...unmeasured];
    lastKey = (row) => (row.chord === null ? UNMEASURED : Number(row.chord));
  } else if (sort === "common") {
    // The couples sharing an interest, ranked, then those sharing none by id: a last count of 0
    // says the cursor is in the second part.
    const shares = mine.length ? sql`${shared} <> 0` : sql`false`;
    const count = after ? Number(after.sortKey) : null;
    let sharing: Row[] = [];
    if (count !== 0) {
      const keyset = after ? sql`(${common}, ${couples.id}) < (${count}::int, ${after.id}::uuid)` : undefined;
      const order = [desc(common), desc(couples.id)];
      // Ranked on the couples alone, then only the page joins its places (Postgres would join every candidate's first).
      const rankedPage = (among?: SQL) => {
        const ranked = db
          .select({ id: couples.id })
          .from(couples)
          .leftJoin(locations, and(eq(locations.entityType, "couple"), eq(locations.entityId, couples.id)))
          .where(and(candidates, shares, keyset, among))
          .orderBy(...order)
          .limit(literalLimit(query.limit + 1));
        return select(among ? "common-kept" : "common-ranked", !!keyset, and(candidates, inArray(couples.id, ranked)), order);
      };
      // The viewer's kept ranking (./common.ts) answers a page that ends at or above its floor, or
      // any page when it holds every couple sharing an interest; a search's few are sorted as they
      // are, and the map's page (DIRECTORY_MAP_MAX) is longer than a kept ranking.
      const ranking = !few && viewer && mine.length && query.limit < COMMON_STORED ? await commonRanking(db, viewer.id, mine) : null;
      const belowFloor = ranking?.floor && after && !reachesFloor({ common: count!, id: after.id }, ranking.floor);
      let exact = false;
      if (ranking && !belowFloor) {
        sharing = await rankedPage(sql`${couples.id} = any(${sql.param(ranking.ids)}::uuid[])`);
        const last = sharing[query.limit];
        exact = ranking.floor === null || (last !== undefined && reachesFloor({ common: Number(last.common), id: last.id }, ranking.floor));
      }
      if (!exact) sharing = await rankedPage();
    }
    const room = query.limit + 1 - sharing.length;
    const none =
      room > 0
        ? await select(
            "common-none",
            count === 0,
            and(candidates, sql`not ${shares}`, count === 0 ? sql`${couples.id} < ${after!.id}::uuid` : undefined),
            [desc(couples.id)],
            room,
          )
        : [];
    rows = [...sharing, ...none];
    lastKey = (row) => Number(row.common);
  } else {
    const keyset = after
      ? sql`(${couples.createdAt}, ${couples.id}) < ('epoch'::timestamptz + ${after.sortKey as number}::bigint * interval '1 microsecond', ${after.id}::uuid)`
      : undefined;
    rows = await select("newest", !!keyset, and(candidates, keyset), [desc(couples.createdAt), desc(couples.id)]);
    lastKey = (row) => Number(row.createdMicros);
  }

  const now = new Date();
  return keysetPage(
    rows,
    query.limit,
    (row) => ({
      ...coupleCard(row, standingOf(row.standing, now)),
      distanceBand: directoryBand(row.chord === null ? null : kmOfChord(Number(row.chord))),
      interestsInCommon: Number(row.common),
      ...extra(row),
    }),
    (last) => cursorAfter(context, { sortKey: lastKey(last), id: last.id }, CURSOR_FORM),
  );
}
