import { describe, expect, it } from "vitest";
import { GET as countRoute } from "@/app/api/directory/count/route";
import { GET as mapRoute } from "@/app/api/directory/map/route";
import { GET as directoryRoute } from "@/app/api/directory/route";
import { LIMITS, TOO_MANY_REQUESTS, type Limit } from "@/lib/rate-limit";
import { call, FORGED_ADDRESS_HEADERS } from "../support/api";
import { forumCouple, type Headers } from "../support/forum";

type Route = Parameters<typeof call>[0];

/** A search no couple matches, so each call is the limit's work and little else. */
const QS = `?q=Zq${Date.now().toString(36)}`;

const get = (route: Route, path: string, headers: Headers) => call(route, "GET", `${path}${QS}`, { headers });

/** Spends the whole of `limit` (every call answered), then expects the next call refused with the spec's 429. */
async function useUp(route: Route, path: string, limit: Limit, headers: Headers) {
  const statuses: number[] = [];
  for (let i = 0; i < limit.limit; i++) statuses.push((await get(route, path, headers)).status);
  expect(statuses.filter((status) => status !== 200)).toEqual([]);
  const refused = await get(route, path, headers);
  expect(refused.status).toBe(429);
  expect(refused.json.error).toMatchObject({ code: "RATE_LIMITED", message: TOO_MANY_REQUESTS });
  const retryAfter = Number(refused.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(limit.windowSeconds);
  for (const forged of FORGED_ADDRESS_HEADERS) expect((await get(route, path, { ...headers, ...forged })).status).toBe(429);
}

/** Hundreds of calls a test: more than the default 30 s on a busy machine. */
const MANY_CALLS_MS = 120_000;

describe("the directory's per-person limits", () => {
  it(
    "list and count share one limit; the partner and another person keep theirs, whatever address is written",
    async () => {
      const us = await forumCouple();
      const them = await forumCouple();
      await useUp(directoryRoute, "/api/directory", LIMITS.directoryPerUser, us.a.headers);
      expect((await get(countRoute, "/api/directory/count", us.a.headers)).status).toBe(429);
      // The map is counted apart: its calls are fewer and each reads more.
      expect((await get(mapRoute, "/api/directory/map", us.a.headers)).status).toBe(200);
      for (const other of [us.b, them.a]) {
        expect((await get(directoryRoute, "/api/directory", other.headers)).status).toBe(200);
        expect((await get(countRoute, "/api/directory/count", other.headers)).status).toBe(200);
      }
    },
    MANY_CALLS_MS,
  );

  it(
    "the count alone uses up the same limit",
    async () => {
      const us = await forumCouple();
      await useUp(countRoute, "/api/directory/count", LIMITS.directoryPerUser, us.a.headers);
      expect((await get(directoryRoute, "/api/directory", us.a.headers)).status).toBe(429);
    },
    MANY_CALLS_MS,
  );

  it(
    "the map has its own, per person",
    async () => {
      const us = await forumCouple();
      const them = await forumCouple();
      await useUp(mapRoute, "/api/directory/map", LIMITS.directoryMapPerUser, us.a.headers);
      expect((await get(directoryRoute, "/api/directory", us.a.headers)).status).toBe(200);
      for (const other of [us.b, them.a]) expect((await get(mapRoute, "/api/directory/map", other.headers)).status).toBe(200);
    },
    MANY_CALLS_MS,
  );
});
