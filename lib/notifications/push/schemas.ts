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

/**
 * A push service's URL: printable ASCII, as every push service's is (a URL's other characters
 * arrive percent-encoded), so its length in characters is its length in bytes, which an index
 * row bounds.
 */
const endpointField = () =>
  z
    .string({ error: "endpoint is required" })
    .min(1, "endpoint is required")
    .max(ENDPOINT_MAX, "endpoint is too long")
    .regex(/^[\x21-\x7e]+$/, "endpoint is not a push service's address");

/** What the browser's PushSubscription.toJSON() sends (expirationTime is ignored). */
export const subscribeSchema = z.object({
  endpoint: endpointField(),
  keys: z.object(
    // A P-256 public key is 65 bytes (87 characters), the auth secret 16 (22).
    { p256dh: base64url("p256dh", 80, 128), auth: base64url("auth", 16, 64) },
    { error: "keys is required" },
  ),
});
export type SubscribeInput = z.output<typeof subscribeSchema>;

/** DELETE /api/push/subscriptions: by id (the settings' 'Remove') or by endpoint (this device turning off). */
export const removeSchema = z.union([z.object({ id: uuidField("id must be a UUID") }), z.object({ endpoint: endpointField() })]);
export type RemoveInput = z.output<typeof removeSchema>;

export const pushSettingsSchema = z.object({
  showPreviews: z.boolean({ error: "showPreviews must be true or false" }).optional(),
  promptDone: z.literal(true, { error: "promptDone can only be true" }).optional(),
});
export type PushSettingsInput = z.output<typeof pushSettingsSchema>;
