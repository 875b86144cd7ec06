import { isIP, isIPv6 } from "node:net";
import { env } from "@/lib/env";

/**
 * Where the client's address comes from, per deployment (README, "Deployment modes"). Nothing a
 * client sends decides it:
 * - Vercel (VERCEL set): Vercel's own `x-vercel-forwarded-for`, which its edge overwrites.
 * - Everywhere else the app runs behind its own server (server.ts), which replaces
 *   X-Forwarded-For with one address: `trustedClientAddress` of the socket's peer and the
 *   entries the TRUSTED_PROXY_HOPS proxies in front of it appended.
 */
export type AddressMode = { vercel: boolean };

const firstEntry = (value: string | null) => value?.split(",")[0]?.trim() || undefined;
const lastEntry = (value: string | null) => value?.split(",").at(-1)?.trim() || undefined;

const defaultMode = (): AddressMode => ({ vercel: Boolean(env().VERCEL) });

/**
 * An entry without the port a proxy may write after the address (`1.2.3.4:5678`, `[::1]:5678`):
 * the port is the connection's, and counting it would give a client one bucket per connection. A
 * bare IPv6 address stays whole, its last group is part of it (`2001:db8::5678`).
 */
function withoutPort(entry: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry);
  if (bracketed) return bracketed[1]!;
  if (isIP(entry)) return entry;
  const hostAndPort = /^(.+):\d+$/.exec(entry);
  return hostAndPort && isIP(hostAndPort[1]!) ? hostAndPort[1]! : entry;
}

/** The address the deployment vouches for, as written but without a port (withoutPort); "unknown" when there is none. */
function vouchedAddress(headers: Headers, mode: AddressMode): string {
  const address = mode.vercel ? firstEntry(headers.get("x-vercel-forwarded-for")) : lastEntry(headers.get("x-forwarded-for"));
  return address ? withoutPort(address) : "unknown";
}

/**
 * The eight groups of an IPv6 address, as hex without leading zeros. The WHATWG URL host parser
 * validates and writes it canonically (lowercase, hex only even for an embedded IPv4, one "::" at
 * most), so all that is left is to fill its "::" with zero groups. A zone id (`%eth0`) names an
 * interface of this machine, not the client: it is dropped.
 */
function ipv6Groups(address: string): string[] {
  const canonical = new URL(`http://[${address.split("%")[0]}]`).hostname.slice(1, -1);
  const [head = [], tail] = canonical.split("::").map((part) => (part ? part.split(":") : []));
  return tail ? [...head, ...Array<string>(8 - head.length - tail.length).fill("0"), ...tail] : head;
}

/**
 * An address as per-address limits tell clients apart: IPv6 by its /64, the least a home or a
 * server is given (RFC 6177), so stepping through the addresses of one /64 is one client; an
 * IPv4-mapped one (`::ffff:a.b.c.d`, how a dual-stack socket reports IPv4) as that IPv4 address;
 * IPv4 and "unknown" as they are.
 */
function limitedAddress(address: string): string {
  if (!isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((group) => group === "0") && groups[5] === "ffff") {
    const [high, low] = [parseInt(groups[6]!, 16), parseInt(groups[7]!, 16)];
    return [high >> 8, high & 255, low >> 8, low & 255].join(".");
  }
  return `${groups.slice(0, 4).join(":")}::/64`;
}

/** The caller's address for per-address limits (an IPv6 one as its /64: limitedAddress); "unknown" is one shared bucket. */
export function clientAddress(headers: Headers, mode: AddressMode = defaultMode()): string {
  return limitedAddress(vouchedAddress(headers, mode));
}

/** Whether the caller is on this machine (the loopback-only pages), by its exact address. */
export function isLoopbackCaller(headers: Headers, mode: AddressMode = defaultMode()): boolean {
  return isLoopback(vouchedAddress(headers, mode));
}

/**
 * The client of a connection whose peer is `socketAddress`: with no trusted proxy the peer itself;
 * behind `hops` proxies, each appending the address it saw, the entry `hops` places from the end of
 * X-Forwarded-For (what the client wrote before that is ignored). A shorter header means the
 * request did not pass every proxy, so its first entry is the nearest address a proxy vouched for.
 */
export function trustedClientAddress(forwardedFor: string | undefined, socketAddress: string | undefined, hops: number): string {
  const chain = [...(forwardedFor ?? "").split(","), socketAddress ?? ""].map((entry) => entry.trim()).filter(Boolean);
  if (chain.length === 0) return "unknown";
  return chain.at(-1 - hops) ?? chain[0]!;
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (how Node reports IPv4 peers on a dual-stack socket). */
export function isLoopback(address: string): boolean {
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  return address === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}
