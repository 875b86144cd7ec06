import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RelativeTime } from "@/components/ui/RelativeTime";

/**
 * A relative time's exact time (its title, on hover) is in the reader's time zone: written in the
 * server's HTML it was the server's (UTC), and hydration keeps an attribute it may not match
 * (suppressHydrationWarning), so a reader in Paris read 10:23 for a message sent at 11:23 their time.
 */
describe("a relative time's exact time", () => {
  it("is not in the server's HTML: the browser writes it, in the reader's zone, once hydrated", () => {
    const html = renderToString(createElement(RelativeTime, { at: "2026-12-06T10:23:00.000Z" }));
    expect(html).toContain('dateTime="2026-12-06T10:23:00.000Z"');
    expect(html).not.toContain("title=");
  });
});
