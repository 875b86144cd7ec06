import { isValidElement, type ReactElement, type ReactNode } from "react";
import { describe, expect, it, vi } from "vitest";
import { NotificationSummary } from "@/components/notifications/NotificationSummary";
import { RelativeTime } from "@/components/ui/RelativeTime";
import type { NotificationView } from "@/lib/notifications/rules";

// Rendered by calling it: its clock's hook is for React's render only (relative-time-clock.test.ts tests the clock).
vi.mock("@/components/ui/useClock", () => ({ useClock: () => 1 }));

/** The element of type `type` in a rendered tree (function components are left as they are). */
function find(node: ReactNode, type: unknown): ReactElement<Record<string, unknown>> | null {
  if (Array.isArray(node)) {
    for (const child of node) {
      const found = find(child, type);
      if (found) return found;
    }
    return null;
  }
  if (!isValidElement<{ children?: ReactNode }>(node)) return null;
  if (node.type === type) return node as ReactElement<Record<string, unknown>>;
  return find(node.props.children, type);
}

describe("a notification's time", () => {
  // Rendered on the server as 'just now', it reads '1 minute ago' once the minute has passed by
  // hydration (a phone, a loaded page): a text that differs there fails the page's hydration
  // (React #418), which then renders the whole page again in the browser.
  it("may read differently at hydration than in the server's HTML, as RelativeTime's", () => {
    const item = {
      id: "n1",
      title: "New message",
      message: "Perpetua & Silvanus wrote to you",
      is_read: false,
      created_at: new Date().toISOString(),
      actor_couple_name: "Perpetua & Silvanus",
      actor_profile_image_url: null,
      actor_is_partner: false,
    } as unknown as NotificationView;
    // The notification's time is the one relative time, which reads again as the clock ticks.
    const relative = find(NotificationSummary({ item }), RelativeTime);
    expect(relative?.props.at).toBe(item.created_at);
    const time = find(RelativeTime({ at: item.created_at }), "time");
    expect(time?.props.children).toBe("just now");
    expect(time?.props.suppressHydrationWarning).toBe(true);
    // Once hydrated (a clock reading), the exact time on hover, in the reader's zone.
    expect(time?.props.title).toBe(
      new Intl.DateTimeFormat("en", { dateStyle: "full", timeStyle: "short" }).format(new Date(item.created_at)),
    );
  });
});
