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

/** The caller's address for per-address limits and loopback-only pages; "unknown" is one shared bucket. */
export function clientAddress(headers: Headers, mode: AddressMode = { vercel: Boolean(env().VERCEL) }): string {
  const address = mode.vercel ? firstEntry(headers.get("x-vercel-forwarded-for")) : lastEntry(headers.get("x-forwarded-for"));
  return address ?? "unknown";
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
