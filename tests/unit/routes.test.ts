import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROUTES, findRoute, navLinks, navSection } from "@/lib/routes";

const APP = path.join(import.meta.dirname, "../../app");

/** The URL pattern of every page.tsx under app/: route groups like (app) add no segment. */
function pagePaths(dir = APP, segments: string[] = []): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isFile()) return entry.name === "page.tsx" ? [`/${segments.join("/")}`] : [];
    if (!entry.isDirectory()) return [];
    const grouped = /^\(.+\)$/.test(entry.name);
    return pagePaths(path.join(dir, entry.name), grouped ? segments : [...segments, entry.name]);
  });
}

describe("route registry", () => {
  it("has a row for every page under app/ and a page for every row", () => {
    const pages = pagePaths().sort();
    expect(pages.length).toBeGreaterThan(20);
    expect(ROUTES.map((row) => row.path).sort()).toEqual(pages);
  });

  it("matches dynamic segments: [id] is one segment, [...rest] one or more", () => {
    expect(findRoute("/profile/abc")?.path).toBe("/profile/[coupleId]");
    expect(findRoute("/profile/abc/def")).toBeUndefined();
    expect(findRoute("/onboarding/a/b")?.path).toBe("/onboarding/[...step]");
    expect(findRoute("/forum/post")).toBeUndefined();
    expect(findRoute("/messages/abc")?.path).toBe("/messages/[conversationId]");
    expect(findRoute("/dev.outbox")).toBeUndefined();
  });

  it("marks the link of the area a page is in: a conversation in Messages, a settings page in Settings, never another couple's profile in yours", () => {
    expect(navSection("/messages/4f1c")).toBe("/messages");
    expect(navSection("/settings/notifications")).toBe("/settings");
    expect(navSection("/profile/4f1c")).toBeUndefined();
    expect(navSection("/messages")).toBeUndefined();
    expect(navSection("/moderation/couples/4f1c")).toBe("/moderation");
    // Every area named is a link of the bar.
    const links = new Set([...navLinks("main"), ...navLinks("secondary"), ...navLinks("moderators")].map((link) => link.href));
    for (const row of ROUTES) if (row.section) expect(links.has(row.section), row.path).toBe(true);
  });

  it("gives the navigation bar its links in order", () => {
    expect(navLinks("main")).toEqual([
      { href: "/forum", label: "Global", tab: "Global" },
      { href: "/forum/local", label: "Local", tab: "Local" },
    ]);
    expect(navLinks("secondary").map((link) => link.label)).toEqual([
      "Directory",
      "Messages",
      "Discover",
      "Events",
      "Your Couple Profile",
      "Settings",
      "Notifications",
    ]);
    expect(navLinks("moderators")).toEqual([{ href: "/moderation", label: "Moderation" }]);
    expect(navLinks("footer")).toEqual([
      { href: "/about", label: "About" },
      { href: "/terms", label: "Terms" },
      { href: "/privacy", label: "Privacy notice" },
      { href: "/guidelines", label: "Community guidelines" },
      { href: "/safety", label: "Safety" },
    ]);
    // Phones: the tab bar takes the links with a tab label, the menu the rest.
    expect([...navLinks("main"), ...navLinks("secondary")].flatMap((link) => (link.tab ? [link.tab] : []))).toEqual([
      "Global",
      "Local",
      "Directory",
      "Messages",
      "Profile",
    ]);
  });
});
