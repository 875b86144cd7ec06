import "server-only";
import { isIP } from "node:net";
import { env } from "@/lib/env";
import { isPublicAddress } from "./addresses";
import { ENDPOINT_MAX } from "./limits";
import { resolveHost } from "./resolve";

/**
 * Whether a push endpoint may be called: `https` on its own port (443: every push service's; any
 * other would let a subscriber aim the server's requests at a public host's other services), no
 * credentials, a host that is a name (or a public address) and whose every address is public
 * (resolved within a bound), checked again when the push is sent (deliver.ts connects only to
 * checked addresses). The tests' local stand-in is allowed only with PUSH_ALLOW_LOCAL_ENDPOINTS.
 */
export async function endpointAllowed(endpoint: string, allowLocal = env().PUSH_ALLOW_LOCAL_ENDPOINTS): Promise<boolean> {
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
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) return isPublicAddress(host);
  if (!host.includes(".") || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal")) return false;
  const addresses = await resolveHost(host);
  return addresses.length > 0 && addresses.every(({ address }) => isPublicAddress(address));
}
