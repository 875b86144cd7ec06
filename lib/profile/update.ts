import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { MESSAGES, userFields } from "@/lib/onboarding/rules";
import { assertStoredImageUrls, discardReplacedImages, replacedImageUrls } from "@/lib/onboarding/uploads";
import type { ImageStorage } from "@/lib/storage";

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
  assertStoredImageUrls({ avatarUrl: update.avatarUrl });
  const replaced = await db.transaction(async (tx) => {
    const [previous] = await tx.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, userId)).for("update");
    await tx.update(users).set(update).where(eq(users.id, userId));
    return update.avatarUrl === undefined || !previous ? [] : replacedImageUrls([previous.avatarUrl], [update.avatarUrl]);
  });
  await discardReplacedImages(db, replaced, storage);
}
