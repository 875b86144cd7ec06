import { z } from "zod";
import { trimmedString, notAllowedMessage, oneLine, requiredText, uuidField } from "@/lib/fields";
import { fromQueryString, intParam, numberParam } from "@/lib/http/query";
import {
  LOCATION_NAME_MAX,
  LOCATION_REQUIRED_MESSAGE,
  PLACE_ID_MAX,
  SEARCH_MAX_QUERY,
  NEARBY_MAX_RADIUS_KM,
  NEARBY_DEFAULT_RADIUS_KM,
  NEARBY_DEFAULT_LIMIT,
  NEARBY_MAX_LIMIT,
  SEARCH_DEFAULT_LIMIT,
  SEARCH_MAX_LIMIT,
} from "./rules";
import { PRIVACY_LEVELS } from "./privacy";

/** A place chosen from the suggestions, named by its id (forms: the place of a person or a couple). */
export const locationField = requiredText(PLACE_ID_MAX, LOCATION_REQUIRED_MESSAGE, LOCATION_REQUIRED_MESSAGE, LOCATION_REQUIRED_MESSAGE);
/** The chosen suggestion's text, sent along with its id by the forms. */
export const locationNameField = requiredText(
  LOCATION_NAME_MAX,
  LOCATION_REQUIRED_MESSAGE,
  LOCATION_REQUIRED_MESSAGE,
  LOCATION_REQUIRED_MESSAGE,
);

export const entityTypeSchema = z.enum(["user", "couple"], { error: "entity_type must be 'user' or 'couple'" });
export const entityIdSchema = uuidField("entity_id must be a UUID");
export const privacyLevelSchema = z.enum(PRIVACY_LEVELS, { error: `privacy_level must be one of ${PRIVACY_LEVELS.join(", ")}` });

/** The settings' 'Who sees your place' form: its level, as the call checks it. */
export const privacyFormSchema = z.object({ privacyLevel: privacyLevelSchema });
export const placeIdSchema = oneLine(
  trimmedString(PLACE_ID_MAX, "place_id is too long", "place_id is required").min(1, "place_id is required"),
  notAllowedMessage("place_id"),
);

/**
 * The browser's search session (one LocationSearch, first keystroke to the pick), handed on to a
 * billed places provider only: a UUID, so nothing else reaches Google (its rule: URL-safe, at most
 * 36 characters). It names no one: never used for identity or rate limits. Anything else is a 400.
 */
export const sessionTokenSchema = uuidField("session_token must be a UUID").optional();

export const searchQuerySchema = z
  .object({
    query: z.preprocess(
      (v) => v ?? "",
      oneLine(trimmedString(SEARCH_MAX_QUERY, `query must be at most ${SEARCH_MAX_QUERY} characters`), notAllowedMessage("query")),
    ),
    limit: intParam("limit", 1, SEARCH_MAX_LIMIT, SEARCH_DEFAULT_LIMIT),
    session_token: sessionTokenSchema,
  })
  .transform(({ session_token, ...rest }) => ({ ...rest, ...(session_token && { sessionToken: session_token }) }));

export const entityRefSchema = z.object({ entityType: entityTypeSchema, entityId: entityIdSchema });

export const normalizeInputSchema = z
  .object({
    place_id: placeIdSchema,
    entity_type: entityTypeSchema,
    entity_id: entityIdSchema,
    /** Left out: a new location gets the default level, an existing one keeps its own. */
    privacy_level: privacyLevelSchema.optional(),
    /** The search session this pick ends (sessionTokenSchema). */
    session_token: sessionTokenSchema,
  })
  .transform((v) => ({
    placeId: v.place_id,
    entityType: v.entity_type,
    entityId: v.entity_id,
    privacyLevel: v.privacy_level,
    ...(v.session_token && { sessionToken: v.session_token }),
  }));

export const privacyInputSchema = z
  .object({ entity_type: entityTypeSchema, entity_id: entityIdSchema, privacy_level: privacyLevelSchema })
  .transform((v) => ({ entityType: v.entity_type, entityId: v.entity_id, privacyLevel: v.privacy_level }));

export const nearbyQuerySchema = z.object({
  lat: z.preprocess(
    fromQueryString,
    numberParam("lat").min(-90, "lat must be between -90 and 90").max(90, "lat must be between -90 and 90"),
  ),
  lng: z.preprocess(
    fromQueryString,
    numberParam("lng").min(-180, "lng must be between -180 and 180").max(180, "lng must be between -180 and 180"),
  ),
  radius: z.preprocess(
    fromQueryString,
    numberParam("radius")
      .positive("radius must be greater than 0")
      .max(NEARBY_MAX_RADIUS_KM, `radius must be at most ${NEARBY_MAX_RADIUS_KM} km`)
      .default(NEARBY_DEFAULT_RADIUS_KM),
  ),
  limit: intParam("limit", 1, NEARBY_MAX_LIMIT, NEARBY_DEFAULT_LIMIT),
});

export type EntityRef = z.output<typeof entityRefSchema>;
export type NormalizeInput = z.output<typeof normalizeInputSchema>;
export type PrivacyInput = z.output<typeof privacyInputSchema>;
export type SearchQuery = z.output<typeof searchQuerySchema>;
export type NearbyQuery = z.output<typeof nearbyQuerySchema>;
