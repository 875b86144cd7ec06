import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import type { RequestsPage } from "@/lib/messages/client/api";
import type { ConnectionRequest } from "@/lib/messages/display";

/** Every link the list renders, with what it was asked to prefetch. */
const links: { href: string; prefetch: unknown }[] = [];
vi.mock("next/link", () => ({
  default: ({ href, prefetch, children, ...anchor }: { href: string; prefetch?: unknown; children: ReactNode }) => {
    links.push({ href, prefetch });
    return createElement("a", { href, ...anchor }, children);
  },
}));
vi.mock("next/navigation", () => ({ useRouter: () => ({ push: () => {} }), usePathname: () => "/messages" }));

const { RequestList } = await import("@/components/messages/RequestList");

const hello = (id: string) =>
  ({
    id,
    note: "Hello from the hills",
    createdAt: new Date().toISOString(),
    approvals: [],
    couple: { id: `couple-${id}`, coupleName: `Couple ${id}`, profileImageUrl: null },
  }) as unknown as ConnectionRequest;

describe("the hellos waiting's links", () => {
  // CoupleCard's rule: a profile is rendered per request (nothing to fetch ahead), and a page of
  // 20 hellos, more with each 'Load more', was a prefetch per card as the list came into view.
  it("prefetch no couple's profile", () => {
    links.length = 0;
    const page: RequestsPage = {
      data: [hello("r1"), hello("r2")],
      pagination: { limit: 20, hasMore: false, nextCursor: null },
      total: 2,
    };
    renderToString(createElement(RequestList, { state: { status: "ready", value: page }, viewer: { userId: "u1", coupleId: "c1" } }));
    expect(links.map((link) => link.href)).toEqual(expect.arrayContaining(["/profile/couple-r1", "/profile/couple-r2"]));
    expect(links.filter((link) => link.prefetch !== false)).toEqual([]);
  });
});
