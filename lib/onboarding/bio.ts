/** The bio's live counter and hint (spec section 2, step 2). Pure, so the thresholds are unit-tested. */
import { BIO_MAX } from "./rules";

export type BioTone = "error" | "warning" | "success";

/** Red under 10, amber under 200, green under 800, amber under 950, red from there on. */
export function bioCounterTone(length: number): BioTone {
  if (length < 10) return "error";
  if (length < 200) return "warning";
  if (length < 800) return "success";
  if (length < 950) return "warning";
  return "error";
}

export function bioHint(length: number): string {
  if (length < 10) return "Tell us more about your adventures together...";
  if (length < 100) return "Great start! Keep sharing...";
  return "Perfect! This gives others a real sense of who you are.";
}

export const bioCounterText = (length: number) => `${length}/${BIO_MAX} characters`;
