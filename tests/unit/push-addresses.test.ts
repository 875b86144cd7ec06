import { describe, expect, it } from "vitest";
import { isPublicAddress } from "@/lib/notifications/push/addresses";

describe("isPublicAddress: where a push endpoint may lead", () => {
  it("refuses loopback, private, shared, link-local, metadata, multicast and reserved addresses", () => {
    for (const address of [
      "127.0.0.1",
      "127.8.8.8",
      "0.0.0.0",
      "10.0.0.1",
      "100.64.0.1",
      "169.254.169.254",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.0.1",
      "198.18.0.1",
      "224.0.0.1",
      "255.255.255.255",
      "::",
      "::1",
      "fc00::1",
      "fd12:3456::1",
      "fe80::1",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      // IPv4-compatible (deprecated; a host with a 6in4 tunnel sends them to the IPv4 address) and local-use NAT64.
      "::127.0.0.1",
      "::7f00:1",
      "64:ff9b:1::a00:1",
      "not an address",
    ])
      expect(isPublicAddress(address), address).toBe(false);
  });

  it("accepts public IPv4 and IPv6 addresses, mapped ones too", () => {
    for (const address of ["8.8.8.8", "142.250.180.10", "172.32.0.1", "2a00:1450:4003:80e::200a", "::ffff:8.8.8.8"])
      expect(isPublicAddress(address), address).toBe(true);
  });
});
