import { z } from "zod";

/** The dashboard's query: `?welcome=partner` is partner B's first arrival (lib/onboarding/router PARTNER_WELCOME); anything else is ignored. */
export const dashboardQuerySchema = z.object({ welcome: z.literal("partner").optional() }).catch({});
