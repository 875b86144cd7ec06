import { describe, expect, it } from "vitest";
import { readyLines } from "@/lib/http/app-server";

describe("readyLines: what `npm run app` says once the server is up", () => {
  it("names the configured address (not the interface) and the outbox", () => {
    expect(readyLines({ appUrl: "http://localhost:3000", host: "127.0.0.1", port: 3000, dev: false, outbox: true })).toEqual([
      "Two of Us is running at http://localhost:3000 (listening on 127.0.0.1:3000, production)",
      "E-mails: http://localhost:3000/dev/outbox",
    ]);
  });

  it("follows APP_URL, and says nothing of an outbox a real provider replaced", () => {
    expect(readyLines({ appUrl: "https://couples.example/", host: "0.0.0.0", port: 8080, dev: true, outbox: false })).toEqual([
      "Two of Us is running at https://couples.example (listening on 0.0.0.0:8080, development)",
    ]);
  });
});
