import { BlockList, isIP } from "node:net";

/**
 * Where a push endpoint may point: a subscription's endpoint is a URL a browser hands us and the
 * server then calls, so it must not reach this machine or its network. The ranges no public host
 * lives in (loopback, private, shared, link-local and cloud metadata, multicast, reserved, and
 * their IPv6 counterparts, NAT64's and IPv4-compatible ones; an IPv4-mapped address is judged as
 * the IPv4 one it carries).
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  // IPv4-compatible addresses (deprecated): a host with a 6in4 tunnel sends them to the IPv4 one they carry. Takes in "::" and "::1".
  ["::", 96],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, "ipv6");

/** Whether an IP address is one a public host may have. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]!);
  return !NOT_PUBLIC.check(address, family === 4 ? "ipv4" : "ipv6");
}
