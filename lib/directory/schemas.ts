/** `GET /api/directory`'s query string: strict, an unknown value is a 400. */
import { z } from "zod";
import { COUPLE_TYPE_VALUES } from "@/lib/couples/rules";
import { oneLine, trimmedString } from "@/lib/fields";
import { intParam } from "@/lib/http/query";
import { INTEREST_VALUES } from "@/lib/interests/catalogue";
import { CURSOR_MAX } from "@/lib/pagination/page";
import {
  DIRECTORY_PAGE_DEFAULT,
  DIRECTORY_PAGE_MAX,
  DIRECTORY_RADII_KM,
  DIRECTORY_SORTS,
  DIRECTORY_SEARCH_MAX,
  DIRECTORY_TEXTS,
  splitList,
  type DirectoryRadius,
} from "./rules";

const emptyAsMissing = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

const listOf = (allowed: readonly string[], message: string) =>
  z.preprocess(
    (value) => (typeof value === "string" ? splitList(value) : value),
    z
      .array(
        z.string().refine((item) => allowed.includes(item), message),
        { error: message },
      )
      .max(allowed.length, message),
  );

export const directoryQuerySchema = z.object({
  // The page's address reads it the same way (rules.ts searchText).
  q: z.preprocess(
    emptyAsMissing,
    oneLine(trimmedString(DIRECTORY_SEARCH_MAX, DIRECTORY_TEXTS.searchTooLong), DIRECTORY_TEXTS.searchControl).optional(),
  ),
  interests: listOf(INTEREST_VALUES, DIRECTORY_TEXTS.interestUnknown).default([]),
  styles: listOf(COUPLE_TYPE_VALUES, DIRECTORY_TEXTS.styleUnknown).default([]),
  verified: z
    .preprocess(emptyAsMissing, z.enum(["1"], { error: DIRECTORY_TEXTS.verifiedInvalid }).optional())
    .transform((value) => value === "1"),
  photoVerified: z
    .preprocess(emptyAsMissing, z.enum(["1"], { error: DIRECTORY_TEXTS.photoVerifiedInvalid }).optional())
    .transform((value) => value === "1"),
  distance: z.preprocess(
    emptyAsMissing,
    z
      .enum(DIRECTORY_RADII_KM.map(String) as [string, ...string[]], { error: DIRECTORY_TEXTS.distanceUnknown })
      .transform((value) => Number(value) as DirectoryRadius)
      .optional(),
  ),
  // Missing: the viewer's default (nearest with a place of their own, else newest), resolved by the query.
  sort: z.preprocess(emptyAsMissing, z.enum(DIRECTORY_SORTS, { error: DIRECTORY_TEXTS.sortUnknown }).optional()),
  // Only bounded here: the query verifies its signature and answers 400.
  cursor: z.preprocess(
    emptyAsMissing,
    z.string({ error: DIRECTORY_TEXTS.cursorInvalid }).max(CURSOR_MAX, DIRECTORY_TEXTS.cursorInvalid).optional(),
  ),
  limit: intParam("limit", 1, DIRECTORY_PAGE_MAX, DIRECTORY_PAGE_DEFAULT),
});
export type DirectoryQuery = z.output<typeof directoryQuerySchema>;

/** `GET /api/directory/count` and `/map`: the same filters, without a page's cursor and size. */
export const directoryWhereSchema = directoryQuerySchema.omit({ cursor: true, limit: true });
