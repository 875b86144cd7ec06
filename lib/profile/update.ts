import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { dateOfBirthSchema, nameSchema } from "@/lib/auth/rules";

export const OCCUPATION_MAX = 100;
export const BIO_MAX = 1000;

/** Accepts the spec's camelCase keys and their snake_case spellings. */
const SNAKE_TO_CAMEL: Record<string, string> = {
  first_name: "firstName",
  last_name: "lastName",
  date_of_birth: "dateOfBirth",
  avatar_url: "avatarUrl",
};

const imageUrlSchema = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => value.startsWith("/") ? !value.startsWith("//") : /^https:\/\//.test(value), "Please use an image URL on https");

export const profileUpdateSchema = z
  .object({
    firstName: nameSchema("First name"),
    lastName: nameSchema("Last name"),
    dateOfBirth: dateOfBirthSchema,
    occupation: z.string().trim().min(1, "Occupation is required").max(OCCUPATION_MAX, `Occupation must be no more than ${OCCUPATION_MAX} characters`),
    bio: z.string().trim().max(BIO_MAX, `Bio is too long (maximum ${BIO_MAX} characters)`),
    avatarUrl: imageUrlSchema.nullable(),
  })
  .partial()
  .strict()
  .refine((update) => Object.keys(update).length > 0, "Nothing to update");

export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

export function normalizeProfileKeys(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).map(([key, value]) => [SNAKE_TO_CAMEL[key] ?? key, value]));
}

export async function updateProfile(db: Db, userId: string, update: ProfileUpdate): Promise<void> {
  await db.update(users).set(update).where(eq(users.id, userId));
}
