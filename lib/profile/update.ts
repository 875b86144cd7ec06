import "server-only";
import { z } from "zod";
import type { Db } from "@/db/client";
import { MESSAGES } from "@/lib/onboarding/rules";
import { userFields } from "@/lib/profile/rules";
import { assertOwnImageUrls, discardReplacedImages } from "@/lib/images/lifecycle";
import type { ImageStorage } from "@/lib/storage";
import { updateUserRow } from "./user-row";

/** Accepts the spec's camelCase keys and their snake_case spellings. */
const SNAKE_TO_CAMEL: Record<string, string> = {
  first_name: "firstName",
  last_name: "lastName",
  date_of_birth: "dateOfBirth",
  avatar_url: "avatarUrl",
};

/** Any of the person's own fields; anything else (e-mail, ids, hashes) is refused, not ignored. */
export const profileUpdateSchema = userFields
  .partial()
  .strict()
  .refine((update) => Object.keys(update).length > 0, MESSAGES.nothingToUpdate);

export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

export function normalizeProfileKeys(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).map(([key, value]) => [SNAKE_TO_CAMEL[key] ?? key, value]));
}

/** Changes the person's own fields; an avatar the change replaced is removed once it is saved. */
export async function updateProfile(db: Db, userId: string, update: ProfileUpdate, storage?: ImageStorage): Promise<void> {
  await assertOwnImageUrls(db, userId, { avatarUrl: update.avatarUrl });
  const { replacedImages } = await db.transaction((tx) => updateUserRow(tx, userId, update));
  await discardReplacedImages(db, userId, replacedImages, storage);
}
