import { describe, expect, it } from "vitest";
import { badgeText, formatNotificationTime, notificationHref, titleWithUnread } from "@/lib/notifications/rules";
import { LIST_MAX_OFFSET, listPageNumber, listQuerySchema, markReadSchema } from "@/lib/notifications/schemas";

describe("notificationHref", () => {
  it("opens the post, at the reply when there is one", () => {
    expect(notificationHref({ post_id: "p1", reply_id: null })).toBe("/forum/post/p1");
    expect(notificationHref({ post_id: "p1", reply_id: "r9" })).toBe("/forum/post/p1#reply-r9");
  });

  it("opens the notifications page when there is no post, even with a reply id", () => {
    expect(notificationHref({ post_id: null, reply_id: null })).toBe("/notifications");
    expect(notificationHref({ post_id: null, reply_id: "r9" })).toBe("/notifications");
  });

  it("opens a messaging notification's conversation, and a request the inbox's requests", () => {
    const base = { post_id: null, reply_id: null };
    expect(notificationHref({ ...base, type: "message", conversation_id: "c1" })).toBe("/messages/c1");
    expect(notificationHref({ ...base, type: "connection_accepted", conversation_id: "c1" })).toBe("/messages/c1");
    expect(notificationHref({ ...base, type: "connection_request", conversation_id: null })).toBe("/messages?tab=requests");
  });

  it("keeps odd ids inside their path segment", () => {
    expect(notificationHref({ post_id: "a/b?c", reply_id: null })).toBe("/forum/post/a%2Fb%3Fc");
  });
});

describe("badgeText", () => {
  it("shows the count up to 99, then 99+", () => {
    expect(badgeText(1)).toBe("1");
    expect(badgeText(99)).toBe("99");
    expect(badgeText(100)).toBe("99+");
    expect(badgeText(12345)).toBe("99+");
  });
});

describe("titleWithUnread", () => {
  it("puts the unread count before the page's title, replaces an older one, and takes it away at 0", () => {
    expect(titleWithUnread("Messages · Two of Us", 3)).toBe("(3) Messages · Two of Us");
    expect(titleWithUnread("(3) Messages · Two of Us", 4)).toBe("(4) Messages · Two of Us");
    expect(titleWithUnread("(99+) Forum · Two of Us", 120)).toBe("(99+) Forum · Two of Us");
    expect(titleWithUnread("(4) Messages · Two of Us", 0)).toBe("Messages · Two of Us");
  });
});

describe("formatNotificationTime", () => {
  const now = new Date("2026-03-20T12:00:00Z");
  const before = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const MINUTE = 60_000;

  it("says how long ago, in the largest whole unit, up to a week", () => {
    expect(formatNotificationTime(before(30_000), now)).toBe("just now");
    expect(formatNotificationTime(before(MINUTE), now)).toBe("1 minute ago");
    expect(formatNotificationTime(before(59 * MINUTE), now)).toBe("59 minutes ago");
    expect(formatNotificationTime(before(2 * 60 * MINUTE + 5 * MINUTE), now)).toBe("2 hours ago");
    expect(formatNotificationTime(before(24 * 60 * MINUTE), now)).toBe("1 day ago");
    expect(formatNotificationTime(before(6 * 24 * 60 * MINUTE), now)).toBe("6 days ago");
  });

  it("shows the date from a week back", () => {
    expect(formatNotificationTime("2026-03-13T12:00:00Z", now)).toBe("Mar 13, 2026");
    expect(formatNotificationTime("2025-11-02T12:00:00Z", now)).toBe("Nov 2, 2025");
  });

  it("says just now for a time slightly in the future (clock skew)", () => {
    expect(formatNotificationTime("2026-03-20T12:00:20Z", now)).toBe("just now");
  });
});

describe("notification schemas", () => {
  it("defaults the page to 20 from offset 0", () => {
    expect(listQuerySchema.parse({})).toEqual({ limit: 20, offset: 0 });
    expect(listQuerySchema.parse({ limit: "50", offset: "40" })).toEqual({ limit: 50, offset: 40 });
  });

  it("turns the mark-read body into ids (without repeats) or all", () => {
    const id = "7f1c2b1e-8a5d-4d0e-9c3a-0b8f6f7f2a11";
    expect(markReadSchema.parse({ notification_ids: [id, id] })).toEqual({ ids: [id] });
    expect(markReadSchema.parse({ notification_ids: [], mark_all: false })).toEqual({ ids: [] });
    expect(markReadSchema.parse({ mark_all: true })).toEqual({ all: true });
  });

  it("reads /notifications?page=N as a page the list's call serves, else the first", () => {
    expect(listPageNumber("3")).toBe(3);
    expect(listPageNumber(["2", "9"])).toBe(2);
    for (const value of [undefined, "", "0", "-1", "1.5", "abc", "1e400"]) expect(listPageNumber(value)).toBe(1);
    // The deepest page the call serves, and one past it (its offset refused with 400).
    const deepest = LIST_MAX_OFFSET / 20 + 1;
    expect(listQuerySchema.safeParse({ limit: "20", offset: String((deepest - 1) * 20) }).success).toBe(true);
    expect(listPageNumber(String(deepest))).toBe(deepest);
    expect(listQuerySchema.safeParse({ limit: "20", offset: String(deepest * 20) }).success).toBe(false);
    expect(listPageNumber(String(deepest + 1))).toBe(1);
    expect(listPageNumber("100000")).toBe(1);
  });
});
