import "server-only";
import { and, arrayOverlaps, asc, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { alias, unionAll, type AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { literalLimit, placeholderSql, preparedPer } from "@/db/prepared";
import { couples, discoverDismissals, discoverSummaries, locations, users } from "@/db/schema";
import { unlessUnderWay } from "@/db/transaction";
import { connectionStates, stateOf } from "@/lib/connections/states";
import { coupleCard, type CoupleCard } from "@/lib/couples/card";
import { interestLists } from "@/lib/couples/rules";
import { MATCH_CHANGES_TAKEN, matchChangedSince } from "@/lib/couples/match-changes";
import { partnerOf } from "@/lib/membership/partner";
import { commonCount, sharedMask, viewerMask } from "@/lib/directory/common";
import { nearestCouples, nearestSql } from "@/lib/directory/nearest";
import { listDirectory } from "@/lib/directory/queries";
import { directoryQuerySchema } from "@/lib/directory/schemas";
import { AppError } from "@/lib/errors";
import { afterResponse } from "@/lib/http/after-response";
import { NEARBY_MAX_RADIUS_KM } from "@/lib/locations/rules";
import { listedPlaceColumns } from "@/lib/locations/place";
import { ownCentre, shownCoordinates, type ListedPlace } from "@/lib/locations/privacy";
import { discoverable, seenByOther } from "@/lib/safety/visibility";
import { bandLabel, coupleInterestSet, DISCOVER_LIMIT, distanceKm, rankSuggestions, WEIGHTS, type ScoringCouple } from "./rules";
import { storeSummary } from "./service";

/**
 * How many couples each SQL pre-filter hands to the scorer: the couples sharing an interest (the
 * couple's interests as the scorer reads them: couples.match_interests) or an adventure style, those with the
 * most in common first (as the directory's 'most in common' ranked afresh, an index-only scan of
 * every such couple: almost every couple shares something, so lowest ids first would hand everyone
 * the same few), and the nearest couples (the directory's nearest walk over distinct shown points, nearest first, ties by id).
 * Bounded, so the scoring cost is the same at 1,000 couples and at 100,000. Run when a couple's
 * stored list is missing or stale, for the full DISCOVER_LIMIT (the dashboard's 3 come from the same list).
 */
export const CANDIDATES_BY_INTEREST = 150;
/**
 * How many of the couples with the most in common are checked for who the viewer may see: room
 * for as many the viewer may not (their own, blocked either way, dismissed) as are kept.
 */
const RANKED_BY_INTEREST = 2 * CANDIDATES_BY_INTEREST;
export const CANDIDATES_NEARBY = 100;
/**
 * Among how many couples a search on the request seeks those with the most in common: those whose
 * match inputs changed last (joined, or changed interests, styles or place). The network is ranked
 * after the response (readFinds).
 */
export const SEARCH_WINDOW = 2_000;

/** How many of the directory's nearest the stored summary keeps: the dashboard shows 5, the rest stand in for any hidden or blocked meanwhile. */
export const NEAR_STORED = 10;

export type DiscoverSuggestion = CoupleCard & {
  /** 'Within 10 km' etc., from the snapped coordinates; null when either place is hidden, country-level or far. */
  distance: string | null;
  score: number;
  reasons: string[];
};

/** What a suggestion's card shows (components/discover): a page sends the browser no more (not its styles, score or distance). */
export type ShownSuggestion = Pick<
  DiscoverSuggestion,
  "coupleId" | "coupleName" | "profileImageUrl" | "badge" | "photoBadge" | "location" | "connection" | "reasons"
>;

export const shownSuggestion = ({
  coupleId,
  coupleName,
  profileImageUrl,
  badge,
  photoBadge,
  location,
  connection,
  reasons,
}: DiscoverSuggestion): ShownSuggestion => ({ coupleId, coupleName, profileImageUrl, badge, photoBadge, location, connection, reasons });

const partnerA = alias(users, "partner_a");
const partnerB = alias(users, "partner_b");

/** The columns scoring needs of a couple; partners contribute their interests only. */
const scoringColumns = {
  id: couples.id,
  coupleName: couples.coupleName,
  profileImageUrl: couples.profileImageUrl,
  coupleTypes: couples.coupleTypes,
  interests: couples.interests,
  status: couples.status,
  partnerAVerified: couples.partnerAVerified,
  partnerBVerified: couples.partnerBVerified,
  photoVerifiedPartners: couples.photoVerifiedPartners,
  aInterests: partnerA.interests,
  bId: partnerB.id,
  bInterests: partnerB.interests,
  place: listedPlaceColumns,
};

type ScoringRow = {
  id: string;
  coupleTypes: string[];
  interests: string[];
  aInterests: string[] | null;
  bId: string | null;
  bInterests: string[] | null;
  place: ListedPlace | null;
};

function scoringCouple(row: ScoringRow, seenAs: "own" | "other" = "other"): ScoringCouple {
  const place = row.place?.id ? row.place : null;
  const at = seenAs === "own" ? ownCentre : shownCoordinates;
  return {
    id: row.id,
    partners: row.bId ? [row.aInterests ?? [], row.bInterests ?? []] : [row.aInterests ?? []],
    coupleInterests: row.interests,
    styles: row.coupleTypes,
    // Another couple: only what others may see, snapped to the level, none when hidden or
    // country-level. The viewer: where they stand (their own distances use their own place).
    point: place ? at(place.privacyLevel, place.latitude, place.longitude) : null,
  };
}

/** `extra`: more columns beside scoring's (the parts of findsQuery). */
const selectScoring = <E extends Record<string, SQL.Aliased>>(db: Pick<Db, "select">, extra: E = {} as E) =>
  db
    .select({ ...scoringColumns, ...extra })
    .from(couples)
    .leftJoin(partnerA, eq(partnerA.id, couples.partner1Id))
    .leftJoin(partnerB, eq(partnerB.id, couples.partner2Id))
    .leftJoin(locations, and(eq(locations.entityType, "couple"), eq(locations.entityId, couples.id)));

/** SQL: the couple `viewer` (an id or a subquery) has not said 'Not for us' to `couples` within the last 30 days. */
const notDismissedBy = (viewer: string | SQL): SQL =>
  sql`not exists (select 1 from ${discoverDismissals} where ${discoverDismissals.coupleId} = ${viewer} and ${discoverDismissals.dismissedCoupleId} = ${couples.id} and ${discoverDismissals.hiddenUntil} > now())`;

/** A stored list is computed again after this long (couples changed meanwhile are taken in on every read: `changed`). */
export const SUMMARY_TTL_MS = 24 * 60 * 60 * 1000;

const USER = placeholderSql("userId");

/** The viewer's couple as scoring sees it. */
const viewerScoring = preparedPer((db) => selectScoring(db).where(partnerOf(USER)).limit(1).prepare("discover_viewer"));

/** Which part of the finds' statement a row answers (findsQuery). */
type FindPart = "viewer" | "stored" | "changed";

/**
 * The viewer, bound once for the whole statement (its CTE, read by every part: each use is an
 * init plan over one row): their couple's id, and its stored lists' ids and the time they were
 * computed (null while it has none). The couple is found through the user, as every part did.
 * `firstSuggestions`: of the stored suggestions, only the first so many the viewer still sees that
 * did not change since (null: all of them; readFinds says why that is enough), named `read_ids`.
 */
const viewerOfFinds = (db: Db, firstSuggestions: SQL | null) =>
  db
    .$with("discover_viewer", {
      coupleId: sql<string>`couple_id`.as("couple_id"),
      storedIds: sql<string[] | null>`stored_ids`.as("stored_ids"),
      readIds: sql<string[] | null>`read_ids`.as("read_ids"),
      computedAt: sql<Date | null>`computed_at`.as("computed_at"),
    })
    .as(
      sql`select vc.id as couple_id, suggestions.read_ids || coalesce(${discoverSummaries.nearIds}, '{}') as stored_ids, suggestions.read_ids, ${discoverSummaries.computedAt} as computed_at
        from (select ${USER}::uuid as user_id) v join ${couples} vc on vc.partner1_id = v.user_id or vc.partner2_id = v.user_id
        left join ${discoverSummaries} on ${discoverSummaries.coupleId} = vc.id
        left join lateral (select ${firstSuggestions === null ? sql`${discoverSummaries.candidateIds}` : firstUnchanged(firstSuggestions)} as read_ids) suggestions on true limit 1`,
    );
type FindsViewer = ReturnType<typeof viewerOfFinds>;

/**
 * SQL, within viewerOfFinds (the viewer's couple `vc`, its stored lists `discover_suggestions`):
 * the first `count` stored suggestions, in the list's order, that the viewer still sees and whose
 * match inputs did not change since the list was computed.
 */
const firstUnchanged = (count: SQL): SQL =>
  sql`array(select listed.id from unnest(${discoverSummaries.candidateIds}) with ordinality as listed(id, n) join ${couples} on ${couples.id} = listed.id
    where ${seenByOther({ coupleId: sql`vc.id` })} and ${notDismissedBy(sql`vc.id`)} and not ${matchChangedSince(sql`${discoverSummaries.computedAt}`)}
    order by listed.n limit ${count})`;

/** The couples a part of the finds names, by id: the parts are chosen apart (each on its own index), their rows read once. */
const partIds = (db: Db, part: FindPart) =>
  db.select({ id: couples.id, part: sql<FindPart>`${sql.raw(`'${part}'`)}::text`.as("find_part") }).from(couples);

/**
 * The stored candidates and near couples that are still eligible now: seen by the viewer
 * (lib/safety/visibility.ts: discoverable, not blocked either way) and not dismissed, so a block or a 'Not for us'
 * counts at once (a dismissed couple leaves the dashboard's near card too: 'Not for us' is said
 * of the couple, not of one card).
 */
const stored = (db: Db, viewer: FindsViewer, eligible: SQL) =>
  partIds(db, "stored").where(and(sql`${couples.id} = any((select stored_ids from ${viewer})::uuid[])`, eligible));

/**
 * The eligible couples whose match inputs changed since the viewer's lists were computed
 * (lib/couples/match-changes.ts), oldest change first, at most MATCH_CHANGES_TAKEN + 1. None while
 * the viewer has no stored lists.
 */
const changed = (db: Db, viewer: FindsViewer, eligible: SQL) =>
  partIds(db, "changed")
    .where(and(matchChangedSince(sql`(select computed_at from ${viewer})`), eligible))
    .orderBy(asc(couples.matchChangedAt))
    // A literal, as the predicates: a generic plan then counts on so many rows, not a tenth of the table.
    .limit(literalLimit(MATCH_CHANGES_TAKEN + 1));

/**
 * The couples of the finds' parts (`parts`) as scoring sees them, with each row's part and, on the
 * viewer's row, the couple's stored lists, their key and age (null on the others, and while the
 * couple has none), in one statement that binds the viewer once. `firstSuggestions`: as viewerOfFinds.
 */
function selectFinds(db: Db, parts: readonly FindPart[], firstSuggestions: SQL | null = null) {
  const summary = <T>(column: AnyPgColumn): SQL<T | null> => sql`${column}`.mapWith(column) as SQL<T | null>;
  const viewer = viewerOfFinds(db, firstSuggestions);
  const viewerCouple = sql`(select couple_id from ${viewer})`;
  const eligible = and(seenByOther({ coupleId: viewerCouple }), notDismissedBy(viewerCouple))!;
  const chosen = parts.map((part) =>
    part === "viewer"
      ? partIds(db, "viewer").where(eq(couples.id, viewerCouple))
      : part === "stored"
        ? stored(db, viewer, eligible)
        : changed(db, viewer, eligible),
  );
  const [first, second, ...rest] = chosen;
  const found = (second ? unionAll(first!, second, ...rest) : first!).as("found");
  return selectScoring(db.with(viewer), {
    part: sql<FindPart>`${found.part}`.as("part"),
    summaryCandidateIds: summary<string[]>(discoverSummaries.candidateIds).as("summary_candidate_ids"),
    summaryNearIds: summary<string[]>(discoverSummaries.nearIds).as("summary_near_ids"),
    summaryInputsKey: summary<string>(discoverSummaries.inputsKey).as("summary_inputs_key"),
    summaryComputedAt: summary<Date>(discoverSummaries.computedAt).as("summary_computed_at"),
    summaryReadIds: sql<string[] | null>`case when ${found.part} = 'viewer' then (select read_ids from ${viewer}) end`.as(
      "summary_read_ids",
    ),
  })
    .innerJoin(found, eq(found.id, couples.id))
    .leftJoin(discoverSummaries, and(sql`${found.part} = 'viewer'`, eq(discoverSummaries.coupleId, couples.id)));
}

const storedCandidates = preparedPer((db) => selectFinds(db, ["stored"]).prepare("discover_stored_candidates"));

/**
 * Every read of the stored lists in one prepared statement, one round trip: the viewer's couple
 * as scoring sees it with its stored lists, the stored couples still eligible, and those changed
 * since.
 */
const findsQuery = preparedPer((db) => selectFinds(db, ["viewer", "stored", "changed"]).prepare("discover_finds"));

/** As findsQuery, of the stored suggestions only the first `shown` still seen and unchanged (the dashboard's few: readFinds). */
const firstFindsQuery = preparedPer((db) =>
  selectFinds(db, ["viewer", "stored", "changed"], placeholderSql("shown")).prepare("discover_first_finds"),
);

/**
 * What the stored list was computed from: the viewer's interests as the scorer reads them (the
 * partners', else the couple's stored list: a stored list the partners' own replace changes nothing),
 * styles and place.
 */
const inputsKey = (viewer: ScoringCouple) =>
  JSON.stringify([interestLists(viewer.partners, viewer.coupleInterests), viewer.styles, viewer.point]);

type CandidateRow = Awaited<ReturnType<ReturnType<typeof storedCandidates>["execute"]>>[number];
/** The viewer (and their couple's stored place), the stored couples still eligible, and which of them each list names. */
type Finds = {
  viewer: ScoringCouple;
  place: ListedPlace | null;
  rows: CandidateRow[];
  candidateIds: string[];
  nearIds: string[] | null;
};

/**
 * The couple's stored lists, computed from the viewer's current interests, styles and place, with
 * the couples changed since (a couple that joined or changed meanwhile is scored with the stored
 * ones, so it shows on the next read if it ranks). No request ranks the whole network: lists a
 * day old, past MATCH_CHANGES_TAKEN changes, or left by a suggestion no longer eligible are served
 * and searched again after the response (a dismissed couple's place is taken on the next read).
 * With no list for the viewer's inputs now (a first visit, a changed profile or place: no one is
 * shown lists built from their old profile), the lists are searched on the request among the
 * SEARCH_WINDOW couples changed last and the nearest, stored, and searched again over the network
 * after the response. Outside a request nothing would run that later, so the network is searched
 * at once. Either way the rows are read with their eligibility re-checked now.
 *
 * `shown` (the dashboard's few): of the stored suggestions, only the first `shown` the viewer still
 * sees that did not change since are read. A stored couple's score moves only with its
 * match_changed_at (lib/couples/match-changes.ts) or with the viewer's inputs (then the list is
 * searched again), so those outrank every other unchanged one, and the changed ones are read as
 * `changed`: the cards are those discover ranks first. Past MATCH_CHANGES_TAKEN changes not every
 * changed one is read, so the whole list is.
 */
async function readFinds(db: Db, userId: string, now: Date, shown: number | null = null): Promise<Finds> {
  const rows = await (shown === null ? findsQuery(db).execute({ userId }) : firstFindsQuery(db).execute({ userId, shown }));
  const viewerRow = rows.find((row) => row.part === "viewer");
  if (!viewerRow) throw new AppError("NOT_FOUND", "Create your couple profile first.");
  const stored = rows.filter((row) => row.part === "stored");
  const changed = rows.filter((row) => row.part === "changed");
  const summary = viewerRow.summaryCandidateIds && {
    candidateIds: viewerRow.summaryCandidateIds,
    nearIds: viewerRow.summaryNearIds,
    inputsKey: viewerRow.summaryInputsKey,
    computedAt: viewerRow.summaryComputedAt!,
  };
  const viewer = scoringCouple(viewerRow, "own");
  const place = viewerRow.place?.id ? viewerRow.place : null;
  const key = inputsKey(viewer);
  // Many reads of a stale list at once (tabs, both partners) search the network once.
  const searchNetwork = () =>
    unlessUnderWay(db, `discover-search:${viewer.id}`, (tx) => computeSummary(tx, userId, viewerRow, key, new Date(), null));
  if (summary && summary.inputsKey === key) {
    const eligible = new Set(stored.map((row) => row.id));
    const changedIds = new Set(changed.map((row) => row.id));
    const current =
      now.getTime() - summary.computedAt.getTime() < SUMMARY_TTL_MS &&
      changed.length <= MATCH_CHANGES_TAKEN &&
      // A stored suggestion dismissed, hidden or blocked since leaves a place the next couple
      // takes, so 'Not for us' never empties discover for the rest of the day (of those the
      // dashboard passed over to its first ones: discover's next read notices the others).
      passedOver(summary.candidateIds, viewerRow.summaryReadIds ?? [], shown).every((id) => eligible.has(id) || changedIds.has(id));
    if (current || afterResponse(searchNetwork)) {
      const storedRows = shown !== null && changed.length > MATCH_CHANGES_TAKEN ? await storedCandidates(db).execute({ userId }) : stored;
      return {
        viewer,
        place,
        rows: [...new Map([...storedRows, ...changed].map((row) => [row.id, row])).values()],
        candidateIds: [...new Set([...summary.candidateIds, ...changedIds])],
        nearIds: summary.nearIds && [...new Set([...summary.nearIds, ...changedIds])],
      };
    }
  }
  const amongLatest = afterResponse(searchNetwork) ? SEARCH_WINDOW : null;
  const lists = await computeSummary(db, userId, viewerRow, key, now, amongLatest);
  return { viewer, place, rows: await storedCandidates(db).execute({ userId }), ...lists };
}

/**
 * The stored suggestions a read went through: all of them, or (`shown`, read: the first `shown`
 * still seen and unchanged) those up to the last one read, or all when fewer were found.
 */
function passedOver(candidateIds: readonly string[], read: readonly string[], shown: number | null): readonly string[] {
  if (shown === null || read.length < shown) return candidateIds;
  return candidateIds.slice(0, candidateIds.indexOf(read.at(-1)!) + 1);
}

/** The stored suggestions scored again on live rows by the pure `rankSuggestions`: reasons and bands are never older than the read. */
function rankedSuggestions({ viewer, rows, candidateIds }: Finds, limit: number) {
  const listed = new Set(candidateIds);
  const candidates = rows.filter((row) => listed.has(row.id));
  const byId = new Map(candidates.map((row) => [row.id, row]));
  return rankSuggestions(
    viewer,
    candidates.map((row) => scoringCouple(row)),
    limit,
  ).map((suggestion) => ({ row: byId.get(suggestion.id)!, suggestion }));
}

function suggestionCard({ row, suggestion }: ReturnType<typeof rankedSuggestions>[number], connections: Connections): DiscoverSuggestion {
  return {
    ...coupleCard(row, stateOf(connections, row.id)),
    distance: suggestion.distanceBand === null ? null : bandLabel(suggestion.distanceBand),
    score: suggestion.score,
    reasons: suggestion.reasons,
  };
}

export type NearRow = CoupleCard & { km: number };

type Connections = Awaited<ReturnType<typeof connectionStates>>;

/**
 * Where the viewer's couple stands with the couples shown (ranked and cut first): one read for
 * every card of the page, and none for the stored couples that are not shown.
 */
const shownConnections = (db: Db, { viewer }: Finds, shown: readonly { row: { id: string } }[], now: Date) =>
  connectionStates(db, viewer.id, [...new Set(shown.map(({ row }) => row.id))], now);

/**
 * The stored near couples measured again between the shown points now, nearest first (ties by
 * id, as the directory orders them), those no longer within 200 km or without a shown point left
 * out. Null when the viewer's couple has no shown place.
 */
function nearest({ viewer, rows, nearIds }: Finds, limit: number) {
  const centre = viewer.point;
  if (nearIds === null || !centre) return null;
  const listed = new Set(nearIds);
  return rows
    .flatMap((row) => {
      const point = listed.has(row.id) ? scoringCouple(row).point : null;
      return point ? [{ row, km: distanceKm(centre, point) }] : [];
    })
    .filter(({ km }) => km <= NEARBY_MAX_RADIUS_KM)
    .sort((a, b) => a.km - b.km || (a.row.id < b.row.id ? -1 : 1))
    .slice(0, limit);
}

/**
 * Suggested couples for the user, best first, each with why (GET /api/discover, /discover), from
 * the couple's stored list (readFinds). Nothing private leaves: no partner names, no
 * coordinates, no distance figure.
 */
export async function discoverSuggestions(db: Db, userId: string, limit = DISCOVER_LIMIT, now = new Date()): Promise<DiscoverSuggestion[]> {
  const finds = await readFinds(db, userId, now);
  const ranked = rankedSuggestions(finds, limit);
  const connections = await shownConnections(db, finds, ranked, now);
  return ranked.map((picked) => suggestionCard(picked, connections));
}

/** The dashboard's read of the stored lists (readFinds), with what its cards show: `readDashboardLists`. */
export type DashboardLists = { place: ListedPlace | null; finds: Finds; counts: { suggestions: number; near: number }; now: Date };

/**
 * The dashboard's one read of the stored lists, with the couple's stored place as that read found
 * it (`place`, exact: the dashboard centres its local forum card on it, at city level, reading it
 * beside the cards' connections rather than after them).
 */
export async function readDashboardLists(
  db: Db,
  userId: string,
  counts: DashboardLists["counts"],
  now = new Date(),
): Promise<DashboardLists> {
  const finds = await readFinds(db, userId, now, counts.suggestions);
  return { place: finds.place, finds, counts, now };
}

/**
 * The dashboard's two cards from its read of the stored lists: `suggestions` suggested couples and
 * `near` couples near by (null: no shown place), with where the couple stands with each.
 */
export async function dashboardCards(db: Db, { finds, counts, now }: DashboardLists) {
  const ranked = rankedSuggestions(finds, counts.suggestions);
  const near = nearest(finds, counts.near);
  const connections = await shownConnections(db, finds, [...ranked, ...(near ?? [])], now);
  return {
    suggestions: ranked.map((picked) => suggestionCard(picked, connections)),
    near: near && near.map(({ row, km }): NearRow => ({ ...coupleCard(row, stateOf(connections, row.id)), km })),
  };
}

/**
 * The viewer's lists searched afresh and stored, as a request without usable lists searches them
 * (`amongLatest`: SEARCH_WINDOW) and as the search after its response does (null): the bench times both.
 */
export async function searchLists(db: Db, userId: string, amongLatest: number | null, now = new Date()) {
  const [viewerRow] = await viewerScoring(db).execute({ userId });
  if (!viewerRow) throw new AppError("NOT_FOUND", "Create your couple profile first.");
  return computeSummary(db, userId, viewerRow, inputsKey(scoringCouple(viewerRow, "own")), now, amongLatest);
}

/**
 * Searches and ranks the candidates (DISCOVER_LIMIT of them, whatever the caller shows) and walks
 * the directory's nearest within 200 km (NEAR_STORED), and stores both lists' ids. `amongLatest`: the
 * interest candidates are sought among that many couples changed last (null: the network).
 */
async function computeSummary(db: Db, userId: string, viewerRow: ScoringRow, key: string, now: Date, amongLatest: number | null) {
  const { viewer, byInterest, byPlace } = await candidateQueries(db, userId, viewerRow, amongLatest);
  const nearQuery = directoryQuerySchema.parse({ sort: "nearest", distance: String(NEARBY_MAX_RADIUS_KM), limit: String(NEAR_STORED) });
  const [interestRows, placeRows, near] = await Promise.all([
    byInterest ?? [],
    byPlace ?? [],
    viewer.point ? listDirectory(db, userId, nearQuery) : null,
  ]);
  const byId = new Map([...interestRows, ...placeRows].map((row) => [row.id, row]));
  const candidateIds = rankSuggestions(
    viewer,
    [...byId.values()].map((row) => scoringCouple(row)),
    DISCOVER_LIMIT,
  ).map((suggestion) => suggestion.id);
  const nearIds = near ? near.data.map((card) => card.coupleId) : null;
  // A read that finds the stored lists stale stores them afresh: the write is the service's.
  await storeSummary(db, viewer.id, { candidateIds, nearIds, inputsKey: key, computedAt: now });
  return { candidateIds, nearIds };
}

/**
 * The two bounded candidate queries, not yet run (the bench EXPLAINs them): the couples sharing
 * an interest or a style (among the `amongLatest` couples whose match inputs changed last; null:
 * among all), and the nearest couples; null when the viewer has nothing to match on.
 * Pre-filtered in SQL: seen by the viewer (lib/safety/visibility.ts: discoverable, not their own,
 * not blocked either way), not dismissed.
 */
export async function candidateQueries(db: Db, userId: string, known?: ScoringRow, amongLatest: number | null = null) {
  const viewerRow = known ?? (await viewerScoring(db).execute({ userId }))[0];
  if (!viewerRow) throw new AppError("NOT_FOUND", "Create your couple profile first.");
  const viewer = scoringCouple(viewerRow, "own");
  // The couple's interests as the scorer reads them (its partners', else its stored list), as
  // couples.match_interests holds every candidate's: a couple shares what the scorer counts.
  const viewerInterests = [...coupleInterestSet(viewer)];
  const eligible = and(seenByOther({ coupleId: viewer.id }), notDismissedBy(viewer.id));

  // Sharing an interest as the directory counts it (`sharedMask`), so the ranking below reads
  // couples_discoverable_match_idx alone.
  const mask = viewerMask(viewerInterests);
  const overlaps = [
    viewerInterests.length > 0 ? sql`${sharedMask(mask)} <> 0` : undefined,
    viewer.styles.length > 0 ? arrayOverlaps(couples.coupleTypes, [...viewer.styles]) : undefined,
  ].filter((condition) => condition !== undefined);
  // The most in common first, as the scorer weighs it without partners or places: the interests
  // shared (the directory's `commonCount`) and the styles both chose; ties by the greater id, as
  // in the directory's 'most in common'. The couples are ranked on the narrow index, and who the
  // viewer may see (their own, a block, 'Not for us') is checked on the first RANKED_BY_INTEREST
  // only: checked on every couple, it cost most of the ranking's time.
  const sharedStyles = viewer.styles.map((style) => sql`(${couples.coupleTypes} @> array[${style}]::text[])::int`);
  const inCommon = sql`${commonCount(mask)} * ${WEIGHTS.couples} + (${sql.join([sql`0`, ...sharedStyles], sql` + `)}) * ${WEIGHTS.style}`;
  // Among `amongLatest`: a walk of couples_discoverable_match_changed_idx from the newest change
  // that stops there, whatever the network's size, its rows named `couples` so the expressions
  // above read them.
  const among =
    amongLatest === null
      ? db
          .select({ id: couples.id })
          .from(couples)
          .where(and(discoverable(), or(...overlaps)))
      : db
          // Through sql: Drizzle refuses a column of a table the query does not name, and here `couples` is the walk's rows.
          .select({ id: sql<string>`${couples.id}` })
          .from(
            sql`(select ${couples.id}, ${couples.matchInterestsMask}, ${couples.coupleTypes} from ${couples} where ${discoverable()} order by ${couples.matchChangedAt} desc limit ${amongLatest}) as ${couples}`,
          )
          .where(or(...overlaps));
  const ranked = among.orderBy(desc(inCommon), desc(couples.id)).limit(RANKED_BY_INTEREST);
  const byInterest =
    overlaps.length > 0
      ? selectScoring(db)
          .where(and(inArray(couples.id, ranked), eligible))
          .orderBy(desc(inCommon), desc(couples.id))
          .limit(CANDIDATES_BY_INTEREST)
      : null;

  const point = viewer.point;
  // The nearest couples first, whatever the distance, ties by id: the directory's nearest walk
  // (nearestCouples, lib/directory/nearest.ts), from shown point to shown point, each point's couples
  // by id, so a crowd at one point costs it no more than CANDIDATES_NEARBY (the scorer gives a band
  // only within 200 km). The candidates' shown points, never their exact ones: which couples are
  // candidates says nothing finer than what each shows (the centre is the viewer's own place).
  const near = point ? nearestSql(point) : null;
  const byPlace = near
    ? selectScoring(db)
        .where(nearestCouples(db, near, { among: eligible, size: CANDIDATES_NEARBY }))
        .orderBy(asc(near.chord), asc(couples.id))
        .limit(CANDIDATES_NEARBY)
    : null;
  return { viewer, byInterest, byPlace };
}
