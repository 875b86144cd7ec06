import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { POST as completeRegistrationRoute } from "@/app/api/auth/complete-registration/route";
import { PUT as updateCoupleFallback } from "@/app/api/couples/update/route";
import { POST as muteRoute, DELETE as unmuteRoute } from "@/app/api/conversations/[id]/mute/route";
import { POST as readRoute } from "@/app/api/conversations/[id]/read/route";
import { POST as dismissRoute } from "@/app/api/discover/[coupleId]/dismiss/route";
import { DELETE as deleteLocationRoute } from "@/app/api/locations/[entityType]/[entityId]/route";
import { PUT as privacyRoute } from "@/app/api/locations/privacy/route";
import { PATCH as notificationsReadRoute } from "@/app/api/notifications/read/route";
import { PUT as answerRoute } from "@/app/api/plans/[id]/answer/route";
import { PUT as feedbackRoute } from "@/app/api/plans/[id]/feedback/route";
import { POST as shareRoute, DELETE as stopSharingRoute } from "@/app/api/plans/[id]/share/route";
import { PUT as pushSettingsRoute } from "@/app/api/push/settings/route";
import { DELETE as removeDeviceRoute } from "@/app/api/push/subscriptions/route";
import { POST as step1Route } from "@/app/api/onboarding/step1/route";
import { POST as completeSetupRoute } from "@/app/api/v2/profile/complete-setup/route";
import { PUT as profileUpdateRoute } from "@/app/api/v2/profile/update/route";
import { getDb } from "@/db/client";
import { rateLimitHits } from "@/db/schema";
import { DISMISSALS_PER_USER } from "@/lib/discover/rules";
import { MESSAGE_LIMITS } from "@/lib/messages/rules";
import { PUSH_SETTINGS_LIMIT } from "@/lib/notifications/push/limits";
import { PLAN_LIMITS } from "@/lib/plans/rules";
import { LIMITS, type Limit } from "@/lib/rate-limit";
import { call, FORGED_ADDRESS_HEADERS } from "../support/api";
import { ownImage, setupBody } from "../support/couples";
import { forumCouple, type Person, type TestCouple } from "../support/forum";
import { formOf, post } from "../support/onboarding";

/*
 * The per-person limits of the small writes: each call counts against the signed-in person's
 * bucket (their user id), whatever address headers it carries. The bucket is filled to one short
 * of the real limit in one statement, so the test is quick and still meets the product's numbers.
 */

type Answer = Awaited<ReturnType<typeof call>>;
type Send = (person: Person, headers: Record<string, string>) => Promise<Answer>;

let us: TestCouple;
beforeEach(async () => {
  us = await forumCouple();
});

async function fillToOneShort(limit: Limit, userId: string) {
  const db = await getDb();
  await db.insert(rateLimitHits).values(Array.from({ length: limit.limit - 1 }, () => ({ bucket: limit.bucket, subject: userId })));
}

/** The limit's last call goes through; every one after is the spec's 429, from any address it claims; the partner's calls are their own. */
async function expectPerPersonLimit(limit: Limit, send: Send) {
  await fillToOneShort(limit, us.a.userId);
  const last = await send(us.a, FORGED_ADDRESS_HEADERS[0]!);
  expect(last.status, JSON.stringify(last.json)).not.toBe(429);
  for (const forged of FORGED_ADDRESS_HEADERS) {
    const refused = await send(us.a, forged);
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe("RATE_LIMITED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(limit.windowSeconds);
  }
  expect((await send(us.b, FORGED_ADDRESS_HEADERS[0]!)).status).not.toBe(429);
}

const as = (person: Person, headers: Record<string, string>) => ({ ...person.headers, ...headers });

describe("per-person limits of small writes", () => {
  it("PUT /api/push/settings", async () => {
    await expectPerPersonLimit(PUSH_SETTINGS_LIMIT, (person, headers) =>
      call(pushSettingsRoute, "PUT", "/api/push/settings", { body: { showPreviews: true }, headers: as(person, headers) }),
    );
  });

  it("DELETE /api/push/subscriptions counts with the push settings", async () => {
    await expectPerPersonLimit(PUSH_SETTINGS_LIMIT, (person, headers) =>
      call(removeDeviceRoute, "DELETE", "/api/push/subscriptions", { body: { id: randomUUID() }, headers: as(person, headers) }),
    );
  });

  it("PUT /api/locations/privacy", async () => {
    await expectPerPersonLimit(LIMITS.locationSettingsPerUser, (person, headers) =>
      call(privacyRoute, "PUT", "/api/locations/privacy", {
        body: { entity_type: "couple", entity_id: us.coupleId, privacy_level: "region" },
        headers: as(person, headers),
      }),
    );
  });

  it("DELETE /api/locations/{entityType}/{entityId} counts with the privacy level", async () => {
    await expectPerPersonLimit(LIMITS.locationSettingsPerUser, (person, headers) =>
      call(deleteLocationRoute, "DELETE", `/api/locations/user/${person.userId}`, {
        params: { entityType: "user", entityId: person.userId },
        headers: as(person, headers),
      }),
    );
  });

  it("PUT /api/v2/profile/update, a text-only save", async () => {
    await expectPerPersonLimit(LIMITS.profileSavesPerUser, (person, headers) =>
      call(profileUpdateRoute, "PUT", "/api/v2/profile/update", { body: { occupation: "Baker" }, headers: as(person, headers) }),
    );
  });

  it("PUT /api/couples/update, a text-only couple save, counts with the profile's", async () => {
    await expectPerPersonLimit(LIMITS.profileSavesPerUser, (person, headers) =>
      call(updateCoupleFallback, "PUT", "/api/couples/update", {
        body: { bio: "We walk the coast every Sunday morning." },
        headers: as(person, headers),
      }),
    );
  });

  it("POST /api/auth/complete-registration, sent again, counts with the profile's", async () => {
    await expectPerPersonLimit(LIMITS.profileSavesPerUser, (person, headers) =>
      call(completeRegistrationRoute, "POST", "/api/auth/complete-registration", {
        body: { firstName: "Ada", lastName: "Lovelace", dateOfBirth: "1990-05-17" },
        headers: as(person, headers),
      }),
    );
  });

  it("POST /api/onboarding/step1 and POST /api/v2/profile/complete-setup, sent again, count with the profile's", async () => {
    await expectPerPersonLimit(LIMITS.profileSavesPerUser, (person, headers) =>
      post(step1Route, "/api/onboarding/step1", formOf({ occupation: "Baker" }), as(person, headers)),
    );
    us = await forumCouple();
    await expectPerPersonLimit(LIMITS.profileSavesPerUser, (person, headers) =>
      call(completeSetupRoute, "POST", "/api/v2/profile/complete-setup", {
        // A photo that is not theirs is refused after the count, before the place's (slow) lookup.
        body: setupBody({ coupleData: { photos: [ownImage()] } }),
        headers: as(person, headers),
      }),
    );
  });

  it("PATCH /api/notifications/read", async () => {
    await expectPerPersonLimit(LIMITS.notificationReadsPerUser, (person, headers) =>
      call(notificationsReadRoute, "PATCH", "/api/notifications/read", { body: { mark_all: true }, headers: as(person, headers) }),
    );
  });

  it("POST /api/conversations/{id}/read", async () => {
    await expectPerPersonLimit(MESSAGE_LIMITS.readsPerMinute, (person, headers) => {
      const id = randomUUID();
      return call(readRoute, "POST", `/api/conversations/${id}/read`, {
        params: { id },
        body: { upTo: randomUUID() },
        headers: as(person, headers),
      });
    });
  });

  it("POST and DELETE /api/conversations/{id}/mute, together", async () => {
    let mute = true;
    await expectPerPersonLimit(MESSAGE_LIMITS.mutesPerHour, (person, headers) => {
      const id = randomUUID();
      mute = !mute;
      return call(mute ? muteRoute : unmuteRoute, mute ? "POST" : "DELETE", `/api/conversations/${id}/mute`, {
        params: { id },
        headers: as(person, headers),
      });
    });
  });

  it("PUT /api/plans/{id}/answer", async () => {
    await expectPerPersonLimit(PLAN_LIMITS.answersPerHour, (person, headers) => {
      const id = randomUUID();
      return call(answerRoute, "PUT", `/api/plans/${id}/answer`, {
        params: { id },
        body: { answer: "going", sequence: 0 },
        headers: as(person, headers),
      });
    });
  });

  it("PUT /api/plans/{id}/feedback and the share link, with the answers", async () => {
    const calls = [
      (id: string, headers: Record<string, string>) =>
        call(feedbackRoute, "PUT", `/api/plans/${id}/feedback`, { params: { id }, body: { answer: "great" }, headers }),
      (id: string, headers: Record<string, string>) => call(shareRoute, "POST", `/api/plans/${id}/share`, { params: { id }, headers }),
      (id: string, headers: Record<string, string>) =>
        call(stopSharingRoute, "DELETE", `/api/plans/${id}/share`, { params: { id }, headers }),
    ];
    for (const send of calls) {
      us = await forumCouple();
      await expectPerPersonLimit(PLAN_LIMITS.answersPerHour, (person, headers) => send(randomUUID(), as(person, headers)));
    }
  });

  it("POST /api/discover/{coupleId}/dismiss", async () => {
    const them = await forumCouple();
    await expectPerPersonLimit(DISMISSALS_PER_USER, (person, headers) =>
      call(dismissRoute, "POST", `/api/discover/${them.coupleId}/dismiss`, {
        params: { coupleId: them.coupleId },
        headers: as(person, headers),
      }),
    );
  });
});
