import "server-only";
import type { IncomingHttpHeaders } from "node:http";
import { Agent, request } from "node:https";
import webpush from "web-push";
import { env } from "@/lib/env";
import { describeError } from "@/lib/log";
import { isPublicAddress } from "./addresses";
import { authUsable, p256dhUsable } from "./keys";
import { resolveHost } from "./resolve";
import type { VapidKeys } from "./config";

/** How long one push may take, from the look-up to the push service's status line; past it, the push counts as unanswered. */
export const PUSH_DEADLINE_MS = 15_000;

/**
 * The answer of a push service: its status, and when it asks us to come back (Retry-After,
 * seconds). `keysUnusable`: nothing was sent, as no push can be encrypted to the subscription's
 * keys (./keys.ts); none ever will be.
 */
export type PushAnswer = { status: number; retryAfterS?: number; keysUnusable?: true };
export type PushRequest = {
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  payload: string;
  options: { TTL: number; urgency: "high" | "normal"; topic?: string };
  vapid: VapidKeys;
};
/** Sends one push; answers the service's status (a network failure, or no answer in time, is status 0). */
export type PushTransport = (request: PushRequest) => Promise<PushAnswer>;

/**
 * Connects only to public addresses, checked as the connection is made (so a name that resolved
 * to a public address when the device subscribed cannot be turned to this network later).
 */
const publicOnlyAgent = new Agent({
  keepAlive: true,
  lookup(hostname, options, callback) {
    void resolveHost(hostname).then((addresses) => {
      const family = (options as { family?: number }).family;
      const list = family === 4 || family === 6 ? addresses.filter((address) => address.family === family) : addresses;
      if (list.length === 0 || !list.every(({ address }) => isPublicAddress(address)))
        return callback(new Error("push endpoint resolves to no address, or to one that is not public"), "", 4);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  },
});

const retryAfter = (headers: IncomingHttpHeaders): number | undefined => {
  const value = Number(headers["retry-after"]);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
};

/**
 * Sends `web-push`'s request (VAPID, RFC 8292; aes128gcm payloads, RFC 8291: no crypto of our
 * own) over an HTTPS request of ours: web-push's own sending has only an idle timeout and keeps
 * the whole answer, so an endpoint's host sending a byte every few seconds would hold the sender
 * (and the due work behind it) for ever, and a long body would fill memory. One deadline,
 * `deadlineMs`, covers the whole exchange; only the status and Retry-After are read, the body is
 * thrown away as it comes (a push service sends none worth reading) and cut at the deadline. No
 * redirect is followed (a 3xx is an answer like any other).
 */
export const webPushTransport =
  (
    agent: Agent | undefined = env().PUSH_ALLOW_LOCAL_ENDPOINTS ? undefined : publicOnlyAgent,
    deadlineMs = PUSH_DEADLINE_MS,
  ): PushTransport =>
  ({ subscription, payload, options, vapid }) =>
    new Promise((resolve) => {
      let answered = false;
      const failed = (error: unknown) => {
        console.error("[push] no answer from the push service", describeError(error));
        resolve({ status: 0 });
      };
      try {
        const details = webpush.generateRequestDetails(subscription, payload, { ...options, vapidDetails: vapid });
        const sending = request(new URL(details.endpoint), { method: details.method, headers: details.headers, agent });
        const deadline = setTimeout(() => sending.destroy(new Error(`no answer within ${deadlineMs} ms`)), deadlineMs);
        sending.on("close", () => clearTimeout(deadline));
        sending.on("response", (response) => {
          answered = true;
          response.resume();
          resolve({ status: response.statusCode ?? 0, retryAfterS: retryAfter(response.headers) });
        });
        // Once answered, an error is the deadline cutting a body still coming: the push's outcome stands.
        sending.on("error", (error) => {
          if (!answered) failed(error);
        });
        sending.end(details.body);
      } catch (error) {
        // The request could not be made: keys no push can be encrypted to (stored before they were
        // checked) are the subscription's fault and never mend; anything else is tried again.
        if (p256dhUsable(subscription.keys.p256dh) && authUsable(subscription.keys.auth)) return failed(error);
        console.error("[push] the subscription's keys take no push", describeError(error));
        resolve({ status: 0, keysUnusable: true });
      }
    });
