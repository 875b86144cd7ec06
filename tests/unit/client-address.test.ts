import { describe, expect, it } from "vitest";
import { clientAddress } from "@/lib/http/client-address";

describe("clientAddress", () => {
  it("takes the entry the proxy appended, not what the client wrote before it", () => {
    expect(clientAddress(new Headers({ "x-forwarded-for": "1.1.1.1, 9.9.9.9" }))).toBe("9.9.9.9");
  });
  it("falls back to X-Real-IP, then to one shared bucket", () => {
    expect(clientAddress(new Headers({ "x-real-ip": "5.5.5.5" }))).toBe("5.5.5.5");
    expect(clientAddress(new Headers())).toBe("unknown");
  });
});
