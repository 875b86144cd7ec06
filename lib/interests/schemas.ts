/** The interests field of a person and of a couple: pure and browser-safe. */
import { picks } from "@/lib/fields";
import { INTEREST_VALUES } from "./catalogue";
import { INTEREST_MESSAGES, INTERESTS_MAX, INTERESTS_MIN } from "./rules";

export const interestsField = picks(INTEREST_VALUES, INTERESTS_MIN, INTERESTS_MAX, {
  unknown: INTEREST_MESSAGES.interestUnknown,
  tooFew: INTEREST_MESSAGES.interestsTooFew,
  tooMany: INTEREST_MESSAGES.interestsTooMany,
});
