import { COUPLE_TYPE_DESCRIPTIONS, COUPLE_TYPES } from "@/lib/couples/rules";

/** The adventure styles with their descriptions, as the onboarding and the couple settings offer them. */
export const STYLE_OPTIONS = COUPLE_TYPES.map((type) => ({ ...type, description: COUPLE_TYPE_DESCRIPTIONS[type.value] }));
