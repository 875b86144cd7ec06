import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { MESSAGES, userFields } from "@/lib/onboarding/rules";
import { assertStoredImageUrls } from "@/lib/onboarding/uploads";

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

export async function updateProfile(db: Db, userId: string, update: ProfileUpdate): Promise<void> {
  assertStoredImageUrls({ avatarUrl: update.avatarUrl });
  await db.update(users).set(update).where(eq(users.id, userId));
}
