import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import type { RequestsPage } from "@/lib/messages/client/api";
import type { ConnectionRequest } from "@/lib/messages/display";

/**
 * A hello's card says what became of it ('You declined this hello.', 'You blocked this couple.',
 * 'You accepted. Waiting for ...') in a live region. Screen readers (NVDA, JAWS) announce a change
 * of a live region already on the page, not one inserted with its words: each card has its (empty)
 * status from its first render, as LoadMore's and the suggestions' are.
 */
vi.mock("next/link", () => ({
  default: ({ href, children, prefetch: _, ...anchor }: { href: string; prefetch?: unknown; children: ReactNode }) =>
    createElement("a", { href, ...anchor }, children),
}));
vi.mock("next/navigation", () => ({ useRouter: () => ({ push: () => {} }), usePathname: () => "/messages" }));

const { RequestList } = await import("@/components/messages/RequestList");

const hello = (id: string, approvals: ConnectionRequest["approvals"] = []) =>
  ({
    id,
    note: "Hello from the hills",
    createdAt: new Date().toISOString(),
    approvals,
    couple: { id: `couple-${id}`, coupleName: `Couple ${id}`, profileImageUrl: null },
  }) as unknown as ConnectionRequest;

describe("a hello's card", () => {
  it("has its status region, empty, before it is answered", () => {
    const page: RequestsPage = { data: [hello("r1"), hello("r2")], pagination: { limit: 20, hasMore: false, nextCursor: null }, total: 2 };
    const html = renderToString(
      createElement(RequestList, { state: { status: "ready", value: page }, viewer: { userId: "u1", coupleId: "c1" } }),
    );
    const cards = html.split("<li").slice(1);
    expect(cards).toHaveLength(2);
    for (const card of cards) expect(card).toMatch(/<p role="status"[^>]*><\/p>/);
  });
});
