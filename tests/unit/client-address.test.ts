import { Agent, request } from "node:http";
import { BlockList, isIPv4, type AddressInfo } from "node:net";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { createAppServer } from "@/lib/http/app-server";
import { clientAddress, isLoopback, isLoopbackCaller, trustedClientAddress } from "@/lib/http/client-address";

describe("clientAddress", () => {
  it("behind the app's server, reads the one address the server wrote into X-Forwarded-For", () => {
    expect(clientAddress(new Headers({ "x-forwarded-for": "9.9.9.9" }), { vercel: false })).toBe("9.9.9.9");
  });
  it("on Vercel, reads Vercel's own header, not X-Forwarded-For or X-Real-IP", () => {
    const headers = new Headers({ "x-vercel-forwarded-for": "7.7.7.7", "x-forwarded-for": "6.6.6.6", "x-real-ip": "5.5.5.5" });
    expect(clientAddress(headers, { vercel: true })).toBe("7.7.7.7");
    expect(clientAddress(new Headers({ "x-forwarded-for": "6.6.6.6" }), { vercel: true })).toBe("unknown");
  });
  it("gives one shared bucket when no address is known, never X-Real-IP a client can send", () => {
    expect(clientAddress(new Headers({ "x-real-ip": "5.5.5.5" }), { vercel: false })).toBe("unknown");
  });
});

describe("clientAddress of an IPv6 client", () => {
  const of = (address: string, mode = { vercel: false }) =>
    clientAddress(new Headers(mode.vercel ? { "x-vercel-forwarded-for": address } : { "x-forwarded-for": address }), mode);

  it("is its /64, however the address is written: stepping through one /64 is one client", () => {
    for (const address of [
      "2001:db8:1:2::1",
      "2001:db8:1:2::abcd:1",
      "2001:0DB8:0001:0002:ffff:ffff:ffff:ffff",
      "2001:db8:1:2:0:0:0:0",
      "2001:db8:1:2::1%eth0",
      "2001:db8:1:2::203.0.113.9",
    ])
      expect(of(address), address).toBe("2001:db8:1:2::/64");
    expect(of("2001:db8:1:2::1", { vercel: true })).toBe("2001:db8:1:2::/64");
    expect(of("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
  });

  it("fills a '::' that reaches into the prefix with zero groups", () => {
    expect(of("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(of("::1")).toBe("0:0:0:0::/64");
    expect(of("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });

  it("is the IPv4 address when IPv4-mapped (a dual-stack socket's IPv4 peer), and IPv4 stays as it is", () => {
    expect(of("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(of("::FFFF:cb00:7109")).toBe("203.0.113.9");
    expect(of("203.0.113.9")).toBe("203.0.113.9");
  });

  it("is a /64 that holds the address, or the IPv4 address it maps, for any address in any written form", () => {
    fc.assert(
      fc.property(fc.ipV6(), fc.constantFrom("", "%eth0", "%25"), (address, zone) => {
        const counted = of(address + zone);
        const holder = new BlockList();
        if (isIPv4(counted)) holder.addAddress(counted, "ipv4");
        else holder.addSubnet(counted.replace(/\/64$/, ""), 64, "ipv6");
        expect(counted.endsWith("/64") || isIPv4(counted)).toBe(true);
        expect(holder.check(address, "ipv6")).toBe(true);
      }),
      { seed: 20260, numRuns: 2000 },
    );
  });

  it("leaves the loopback check its exact address", () => {
    expect(isLoopbackCaller(new Headers({ "x-forwarded-for": "::1" }), { vercel: false })).toBe(true);
    expect(isLoopbackCaller(new Headers({ "x-forwarded-for": "::2" }), { vercel: false })).toBe(false);
    expect(isLoopbackCaller(new Headers({ "x-forwarded-for": "::ffff:127.0.0.1" }), { vercel: false })).toBe(true);
  });
});

describe("clientAddress of an entry with a port", () => {
  const of = (address: string) => clientAddress(new Headers({ "x-forwarded-for": address }), { vercel: false });

  it("counts the address, not the connection: a port written after it is dropped", () => {
    expect(of("1.2.3.4:5678")).toBe("1.2.3.4");
    expect(of("1.2.3.4:5679")).toBe("1.2.3.4");
    expect(of("[2001:db8:1:2::1]:5678")).toBe("2001:db8:1:2::/64");
    expect(of("[::ffff:203.0.113.9]:443")).toBe("203.0.113.9");
    expect(of("[2001:db8:1:2::1]")).toBe("2001:db8:1:2::/64");
  });

  it("leaves a bare IPv6 address whole: its last group is not a port", () => {
    expect(of("2001:db8:1:2::5678")).toBe("2001:db8:1:2::/64");
    expect(of("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(of("::1")).toBe("0:0:0:0::/64");
  });

  it("lets the loopback check read a loopback address with a port", () => {
    expect(isLoopbackCaller(new Headers({ "x-forwarded-for": "[::1]:5678" }), { vercel: false })).toBe(true);
    expect(isLoopbackCaller(new Headers({ "x-forwarded-for": "127.0.0.1:5678" }), { vercel: false })).toBe(true);
    expect(isLoopbackCaller(new Headers({ "x-forwarded-for": "10.0.0.1:5678" }), { vercel: false })).toBe(false);
  });
});

describe("trustedClientAddress", () => {
  it("bare (0 hops): the socket's peer, whatever the client wrote", () => {
    expect(trustedClientAddress("1.1.1.1, 2.2.2.2", "203.0.113.9", 0)).toBe("203.0.113.9");
    expect(trustedClientAddress(undefined, "203.0.113.9", 0)).toBe("203.0.113.9");
  });
  it("behind one proxy: the entry that proxy appended, not what the client wrote before it", () => {
    expect(trustedClientAddress("1.1.1.1, 198.51.100.7", "10.0.0.2", 1)).toBe("198.51.100.7");
  });
  it("behind two proxies: the entry two places from the end", () => {
    expect(trustedClientAddress("1.1.1.1, 198.51.100.7, 10.0.0.3", "10.0.0.2", 2)).toBe("198.51.100.7");
  });
  it("with fewer entries than proxies, the first address a proxy vouched for", () => {
    expect(trustedClientAddress(undefined, "10.0.0.2", 1)).toBe("10.0.0.2");
    expect(trustedClientAddress("", undefined, 0)).toBe("unknown");
  });
});

describe("isLoopback", () => {
  it("knows IPv4, IPv6 and IPv4-mapped loopback, and nothing else", () => {
    for (const address of ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"]) expect(isLoopback(address)).toBe(true);
    for (const address of ["10.0.0.1", "::ffff:10.0.0.1", "unknown", "127.0.0.1.evil", "1127.0.0.1"])
      expect(isLoopback(address)).toBe(false);
  });
});

describe("the app's server (server.ts)", () => {
  let close: (() => void) | undefined;
  afterEach(() => close?.());

  /** Starts the server on a free loopback port with a handler that echoes what Next would see. */
  async function start(options: { trustedProxyHops: number; strictTransportSecurity: string | null }) {
    const server = createAppServer(async (req, res) => {
      res.end(JSON.stringify({ forwardedFor: req.headers["x-forwarded-for"] }));
    }, options);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    close = () => server.close();
    return (server.address() as AddressInfo).port;
  }

  function get(port: number, headers: Record<string, string>, agent?: Agent) {
    return new Promise<{ body: { forwardedFor: string }; hsts: string | undefined }>((resolve, reject) => {
      request({ port, host: "127.0.0.1", path: "/api/v2/auth/me", headers, agent }, (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString()));
        res.on("end", () => resolve({ body: JSON.parse(text), hsts: res.headers["strict-transport-security"] as string | undefined }));
      })
        .on("error", reject)
        .end();
    });
  }

  it("replaces a client-set X-Forwarded-For with the socket's address", async () => {
    const port = await start({ trustedProxyHops: 0, strictTransportSecurity: null });
    const { body, hsts } = await get(port, { "x-forwarded-for": "1.2.3.4" });
    expect(isLoopback(body.forwardedFor)).toBe(true);
    expect(clientAddress(new Headers({ "x-forwarded-for": body.forwardedFor }), { vercel: false })).toBe(body.forwardedFor);
    expect(hsts).toBeUndefined();
  });

  it("behind a trusted proxy, keeps the address that proxy appended and drops what the client wrote", async () => {
    const port = await start({ trustedProxyHops: 1, strictTransportSecurity: null });
    const { body } = await get(port, { "x-forwarded-for": "1.2.3.4, 198.51.100.7" });
    expect(body.forwardedFor).toBe("198.51.100.7");
  });

  it("keeps an idle kept-alive connection open past Node's default, so a client reusing it is not reset", async () => {
    const port = await start({ trustedProxyHops: 0, strictTransportSecurity: null });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    agent.on("free", (socket) => sockets.add(socket));
    try {
      await get(port, {}, agent);
      // Node's default closes it after 5 s (and 1 s of grace): the next request would need a new one.
      await new Promise((resolve) => setTimeout(resolve, 6_500));
      const { body } = await get(port, {}, agent);
      expect(isLoopback(body.forwardedFor)).toBe(true);
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it("adds HSTS to every response, API ones included, when decided at start", async () => {
    const port = await start({ trustedProxyHops: 0, strictTransportSecurity: "max-age=63072000; includeSubDomains; preload" });
    expect((await get(port, {})).hsts).toBe("max-age=63072000; includeSubDomains; preload");
  });
});
