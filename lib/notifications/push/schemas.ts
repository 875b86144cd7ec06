import { z } from "zod";
import { uuidField } from "@/lib/fields";
import { authUsable, p256dhUsable } from "./keys";
import { ENDPOINT_MAX } from "./limits";

/** One of the subscription's keys, refused unless a push can be encrypted to it (./keys.ts). */
const keyField = (name: string, usable: (value: string) => boolean, expected: string) =>
  z.string({ error: `keys.${name} is required` }).refine(usable, `keys.${name} is not a valid key: ${expected}, base64url`);

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
    {
      p256dh: keyField("p256dh", p256dhUsable, "a P-256 public key of 65 bytes"),
      auth: keyField("auth", authUsable, "a secret of 16 bytes"),
    },
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
