"use server";

import { action } from "@/lib/http/action";
import { parseWith } from "@/lib/http/errors";
import { coupleUpdateSchema } from "@/lib/couples/schemas";
import { updateCouple } from "@/lib/couples/service";
import { setPrivacy } from "@/lib/locations/service";
import { privacyLevelSchema, sessionTokenSchema } from "@/lib/locations/schemas";
import { forumIdParamsSchema } from "@/lib/forum/schemas";
import { unblockCouple } from "@/lib/safety/blocking";
import { SAFETY_REACTIONS } from "@/lib/registry/safety";
import { loadLocationSettings } from "@/lib/settings/queries";

/*
 * The settings' server actions: each the same domain function as its REST call, always on the
 * caller's own couple (no id is taken from the browser).
 */

/** The couple's privacy level: PUT /locations/privacy's setPrivacy on the caller's couple. */
export const savePrivacyAction = action(
  {
    access: "complete-profile",
    input: (level: unknown) => parseWith(privacyLevelSchema, level),
    failure: "Could not save your privacy level. Please try again.",
  },
  async ({ db, caller, couple, input }) => {
    const location = await setPrivacy(db, { entityType: "couple", entityId: couple.coupleId, privacyLevel: input }, caller);
    return { privacyLevel: location.privacy_level };
  },
);

/** 'Show us in the directory': PUT /api/v2/couples/{id} with {isVisible} on the caller's couple. */
export const saveVisibilityAction = action(
  {
    access: "complete-profile",
    input: (isVisible: unknown) => parseWith(coupleUpdateSchema, { isVisible }, { firstIssue: true }),
    failure: "Could not save your choice. Please try again.",
  },
  async ({ db, caller, couple, input, clientAddress }) => {
    const saved = await updateCouple(db, caller.userId, couple.coupleId, input, { clientAddress });
    return { isVisible: saved.isVisible };
  },
);

/**
 * A new place for the couple, chosen from the suggestions: PUT /api/v2/couples/{id} with {placeId},
 * and the search session the pick ends (sessionTokenSchema).
 */
export const saveCouplePlaceAction = action(
  {
    access: "complete-profile",
    input: (placeId: unknown, sessionToken?: unknown) => ({
      update: parseWith(coupleUpdateSchema, { placeId }, { firstIssue: true }),
      sessionToken: parseWith(sessionTokenSchema, sessionToken, { firstIssue: true }),
    }),
    failure: "Could not save your location. Please try again.",
  },
  async ({ db, caller, couple, input, clientAddress }) => {
    await updateCouple(db, caller.userId, couple.coupleId, input.update, { clientAddress, sessionToken: input.sessionToken });
    return { place: (await loadLocationSettings(db, caller.userId)).place };
  },
);

/** 'Unblock': DELETE /api/couples/{id}/block's unblockCouple, for the caller's couple. */
export const unblockCoupleAction = action(
  {
    access: "complete-profile",
    input: (id: unknown) => parseWith(forumIdParamsSchema, { id }, { firstIssue: true }).id,
    failure: "Could not unblock this couple. Please try again.",
  },
  async ({ db, couple, input }) => {
    await unblockCouple(db, couple, input, SAFETY_REACTIONS);
    return {};
  },
);

// 'Resend' and 'Cancel' of the partner invitation: app/(app)/dashboard/actions.ts (one pair for both pages).
