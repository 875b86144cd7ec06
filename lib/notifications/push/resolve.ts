import "server-only";
import { Resolver } from "node:dns/promises";

/** How long a push host's name may take to resolve, both families at once. */
export const RESOLVE_TIMEOUT_MS = 2_000;

export type HostAddress = { address: string; family: 4 | 6 };

/**
 * A push host's addresses, both families, or none when the name does not resolve within
 * RESOLVE_TIMEOUT_MS. Through c-ares, a query on the network: not the system's getaddrinfo, which
 * holds a thread of libuv's pool (shared with password hashing and file reads) for as long as
 * a nameserver a subscriber chose keeps it waiting. `servers`: the tests' own nameserver.
 */
export async function resolveHost(host: string, servers?: string[]): Promise<HostAddress[]> {
  const resolver = new Resolver({ timeout: RESOLVE_TIMEOUT_MS, tries: 1 });
  if (servers) resolver.setServers(servers);
  // Several nameservers are tried in turn: the whole wait is bounded, not each one's.
  const timer = setTimeout(() => resolver.cancel(), RESOLVE_TIMEOUT_MS);
  try {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
    return [
      ...(v4.status === "fulfilled" ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
      ...(v6.status === "fulfilled" ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
    ];
  } finally {
    clearTimeout(timer);
  }
}
