import { z } from "zod";

/** 'Not for us' names the couple by id; an id longer than any the app makes is refused unread. */
export const dismissedCoupleIdSchema = z.string().max(100);
