import { z } from "zod";
import { uuidField } from "@/lib/fields";
import { ENDPOINT_MAX } from "./limits";

/** base64url, as PushSubscription.toJSON() gives the keys. */
const base64url = (name: string, min: number, max: number) =>
  z
    .string({ error: `keys.${name} is required` })
    .min(min, `keys.${name} is not a valid key`)
    .max(max, `keys.${name} is not a valid key`)
    .regex(/^[\w-]+=*$/, `keys.${name} is not a valid key`);

/** What the browser's PushSubscription.toJSON() sends (expirationTime is ignored). */
export const subscribeSchema = z.object({
  endpoint: z.string({ error: "endpoint is required" }).min(1, "endpoint is required").max(ENDPOINT_MAX, "endpoint is too long"),
  keys: z.object(
    // A P-256 public key is 65 bytes (87 characters), the auth secret 16 (22).
    { p256dh: base64url("p256dh", 80, 128), auth: base64url("auth", 16, 64) },
    { error: "keys is required" },
  ),
});
export type SubscribeInput = z.output<typeof subscribeSchema>;

/** DELETE /api/push/subscriptions: by id (the settings' 'Remove') or by endpoint (this device turning off). */
export const removeSchema = z.union([
  z.object({ id: uuidField("id must be a UUID") }),
  z.object({ endpoint: z.string().min(1).max(ENDPOINT_MAX) }),
]);
export type RemoveInput = z.output<typeof removeSchema>;

export const pushSettingsSchema = z.object({
  showPreviews: z.boolean({ error: "showPreviews must be true or false" }).optional(),
  promptDone: z.literal(true, { error: "promptDone can only be true" }).optional(),
});
export type PushSettingsInput = z.output<typeof pushSettingsSchema>;
