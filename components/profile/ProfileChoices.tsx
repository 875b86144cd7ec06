"use client";

import { ChipPicker } from "@/components/ui/ChipPicker";
import { COUPLE_TYPE_DESCRIPTIONS, COUPLE_TYPES, COUPLE_TYPES_MAX } from "@/lib/couples/rules";
import type { InterestsByCategory } from "@/lib/interests/catalogue";
import { INTERESTS_MAX, INTERESTS_MIN } from "@/lib/interests/rules";

/** The adventure styles with their descriptions. */
const STYLE_OPTIONS = COUPLE_TYPES.map((type) => ({ ...type, description: COUPLE_TYPE_DESCRIPTIONS[type.value] }));

type ChoiceProps = {
  value: string[];
  onChange(values: string[]): void;
  error?: string;
  disabled?: boolean;
};

/** A partner's interests, by category, between their minimum and maximum: in the onboarding and the profile settings. */
export function InterestsPicker({ categories, value, ...rest }: ChoiceProps & { categories: InterestsByCategory }) {
  return (
    <ChipPicker
      kind="interest"
      legend="Interests"
      name="interests"
      hint={`Select ${INTERESTS_MIN}-${INTERESTS_MAX} interests`}
      count={`${value.length} of ${Object.values(categories).flat().length} interests selected`}
      max={INTERESTS_MAX}
      categories={categories}
      value={value}
      {...rest}
    />
  );
}

/** The couple's adventure styles, up to their maximum: in the onboarding and the couple settings. */
export function StylesPicker({ value, ...rest }: ChoiceProps) {
  return (
    <ChipPicker
      kind="style"
      legend="Adventure styles"
      name="coupleTypes"
      hint={`Choose up to ${COUPLE_TYPES_MAX} (${value.length} selected)`}
      limitMessage={`You can select up to ${COUPLE_TYPES_MAX} adventure styles`}
      max={COUPLE_TYPES_MAX}
      options={STYLE_OPTIONS}
      value={value}
      {...rest}
    />
  );
}
