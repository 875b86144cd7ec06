import { readFileSync } from "node:fs";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";

// The server action stays on the server: only its reference is rendered here.
vi.mock("@/app/(app)/settings/actions", () => ({ unblockCoupleAction: vi.fn() }));

import { BlockedCouples } from "@/components/settings/BlockedCouples";
import styles from "@/components/settings/settings.module.css";

const emptyPage = { data: [], pagination: { limit: 20, nextCursor: null, hasMore: false } };

/** The class names of the polite status lines a render holds, in order ('Load more''s hidden one first). */
const statusLines = (html: string) => [...html.matchAll(/<p class="([^"]*)" role="status">/g)].map((match) => match[1]!.split(" "));

describe("the blocked couples' section with nobody blocked", () => {
  it("keeps no empty line below 'You haven't blocked anyone.': its outcome line takes room only once it says something", () => {
    const html = renderToStaticMarkup(createElement(BlockedCouples, { page: emptyPage }));
    expect(html).toContain("You haven&#x27;t blocked anyone.");
    const [loadMore, outcome] = statusLines(html);
    // 'Load more''s status is out of the flow (visually hidden): it takes no room.
    expect(loadMore).toEqual(["visually-hidden"]);
    expect(outcome).toEqual(expect.arrayContaining([styles.status, styles.statusIdle]));
    const css = readFileSync("components/settings/settings.module.css", "utf8");
    expect(css).toMatch(/\.statusIdle \{\s*min-height: 0;\s*margin: 0;\s*\}/);
  });
});
