import "server-only";
import { isIP } from "node:net";
import { env } from "@/lib/env";
import { isPublicAddress } from "./addresses";
import { ENDPOINT_MAX } from "./limits";
import { resolveHost } from "./resolve";

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, "");

/**
 * Whether a push endpoint may be called as far as its URL tells: `https` on its own port (443:
 * every push service's; any other would let a subscriber aim the server's requests at a public
 * host's other services), no credentials, a host that is a name (not a local one) or a public
 * address. Read again as each push is sent (deliver.ts), so a subscription stored under an older,
 * looser rule is never called. The tests' local stand-in is allowed only with PUSH_ALLOW_LOCAL_ENDPOINTS.
 */
export function endpointFormAllowed(endpoint: string, allowLocal = env().PUSH_ALLOW_LOCAL_ENDPOINTS): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== "https:" || url.username || url.password || endpoint.length > ENDPOINT_MAX) return false;
  if (allowLocal) return true;
  // The URL parser leaves the port empty when it is the scheme's own (443).
  if (url.port !== "") return false;
  const host = hostOf(url);
  if (isIP(host)) return isPublicAddress(host);
  return host.includes(".") && !host.endsWith(".localhost") && !host.endsWith(".local") && !host.endsWith(".internal");
}

/**
 * Whether a push endpoint may be subscribed: its URL's rule (endpointFormAllowed), and a name's
 * every address public (resolved within a bound). The addresses are checked again when the push
 * is sent (deliver.ts connects only to checked addresses).
 */
export async function endpointAllowed(endpoint: string, allowLocal = env().PUSH_ALLOW_LOCAL_ENDPOINTS): Promise<boolean> {
  if (!endpointFormAllowed(endpoint, allowLocal)) return false;
  if (allowLocal) return true;
  const host = hostOf(new URL(endpoint));
  if (isIP(host)) return true;
  const addresses = await resolveHost(host);
  return addresses.length > 0 && addresses.every(({ address }) => isPublicAddress(address));
}
