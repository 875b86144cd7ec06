import { z } from "zod";
import { notAllowedMessage, oneLine } from "@/lib/fields";
import {
  EMAIL_INVALID_MESSAGE,
  isAdult,
  isRealDate,
  NAME_MAX,
  PASSWORD_MAX,
  PASSWORD_REQUIREMENTS,
  RESET_PASSWORD_MIN,
} from "./plain-rules";

export * from "./plain-rules";

/** Field rules shared by the forms (react-hook-form resolver) and the server. Pure, browser-safe. */

export const emailSchema = oneLine(
  z
    .string({ error: EMAIL_INVALID_MESSAGE })
    .trim()
    .toLowerCase()
    .max(254, EMAIL_INVALID_MESSAGE)
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, EMAIL_INVALID_MESSAGE),
  EMAIL_INVALID_MESSAGE,
);

export const registrationPasswordSchema = z
  .string({ error: PASSWORD_REQUIREMENTS[0].message })
  .max(PASSWORD_MAX, `Password must be no more than ${PASSWORD_MAX} characters`)
  .superRefine((password, ctx) => {
    const failed = PASSWORD_REQUIREMENTS.find((rule) => !rule.test(password));
    if (failed) ctx.addIssue({ code: "custom", message: failed.message });
  });

export const resetPasswordSchema = z
  .string({ error: `Password must be at least ${RESET_PASSWORD_MIN} characters long.` })
  .min(RESET_PASSWORD_MIN, `Password must be at least ${RESET_PASSWORD_MIN} characters long.`)
  .max(PASSWORD_MAX, `Password must be no more than ${PASSWORD_MAX} characters`);

export { CONTROL_CHARACTER } from "@/lib/fields";

/** A person's name; `required` replaces the message for a missing one (the invite form asks about the partner). */
export const nameSchema = (field: "First name" | "Last name", required = `${field} is required`) =>
  oneLine(
    z.string({ error: required }).trim().min(1, required).max(NAME_MAX, `${field} must be no more than ${NAME_MAX} characters`),
    notAllowedMessage(field),
  );

export const dateOfBirthSchema = z
  .string({ error: "Please enter your date of birth" })
  .trim()
  .min(1, "Please enter your date of birth")
  .refine(isRealDate, "Please enter a valid date")
  .refine((value) => isAdult(value), "You must be at least 18 years old");
