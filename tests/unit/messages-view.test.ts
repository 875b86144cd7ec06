import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MESSAGE_TEXTS } from "@/lib/messages/rules";
import { arrivals } from "@/lib/live/arrivals";
import {
  approvalLine,
  authorLine,
  heardAsMessage,
  dayLabel,
  lastMessageLine,
  mergeMessages,
  readUpTo,
  seenByText,
  threadItems,
  withErased,
  withHeardMessage,
  withMessage,
  withNewestPage,
  withOlderPage,
  withReadPosition,
  type Message,
  type ThreadValue,
} from "@/lib/messages/display";

const marisol = { userId: "u-marisol", firstName: "Marisol", coupleId: "c-1", coupleName: "Marisol & Thaddeus" };
const ana = { userId: "u-ana", firstName: "Ana", coupleId: "c-2", coupleName: "Ana & Rui" };

const message = (id: string, createdAt: string, author = marisol, more: Partial<Message> = {}): Message => ({
  id,
  conversationId: "k",
  body: `text ${id}`,
  photoUrl: null,
  author,
  createdAt,
  editedAt: null,
  deleted: false,
  replyTo: null,
  reactions: [],
  ...more,
});

describe("how a conversation reads", () => {
  it("announces only the others' messages that arrived after the last one heard, photos and long words included", () => {
    const rui = { ...ana, userId: "u-rui", firstName: "Rui" };
    const thread = [
      message("1", "2026-01-01T10:00:00Z", ana),
      message("2", "2026-01-01T10:01:00Z", marisol),
      message("3", "2026-01-01T10:02:00Z", ana, { body: "  see\n you " }),
      message("4", "2026-01-01T10:03:00Z", rui, { body: null, photoUrl: "/p.jpg" }),
      message("5", "2026-01-01T10:04:00Z", ana, { deleted: true, body: null }),
      message("6", "2026-01-01T10:05:00Z", rui, { body: "x".repeat(500) }),
    ];
    const asMarisol = heardAsMessage("u-marisol");
    const heard = arrivals(thread, "1", asMarisol);
    expect(heard.slice(0, 2)).toEqual([
      { id: "3", text: "Ana: see you" },
      { id: "4", text: "Rui: Photo" },
    ]);
    expect(heard.map((arrival) => arrival.id)).toEqual(["3", "4", "6"]);
    expect(heard[2]!.text.length).toBeLessThan(220);
    expect(arrivals(thread, "6", asMarisol)).toEqual([]);
    // Another conversation's last message announces nothing; an empty thread's first messages are arrivals.
    expect(arrivals(thread, "gone", asMarisol)).toEqual([]);
    expect(arrivals(thread.slice(0, 2), "", asMarisol)).toEqual([{ id: "1", text: "Ana: text 1" }]);
    // One's own words are never read back.
    expect(arrivals(thread.slice(0, 2), "1", asMarisol)).toEqual([]);
  });

  it("names an author as person of couple", () => {
    expect(authorLine(marisol)).toBe("Marisol of Marisol & Thaddeus");
  });

  it("says whose the inbox's last message is, or that it was deleted", () => {
    expect(lastMessageLine(message("1", "2026-01-01T10:00:00Z", marisol, { body: "hi\nthere" }), "u-marisol")).toBe("You: hi there");
    expect(lastMessageLine(message("1", "2026-01-01T10:00:00Z", ana), "u-marisol")).toBe("Ana: text 1");
    expect(lastMessageLine(message("1", "2026-01-01T10:00:00Z", ana, { deleted: true, body: null }), "u-marisol")).toBe(
      MESSAGE_TEXTS.deleted,
    );
    expect(lastMessageLine(message("1", "2026-01-01T10:00:00Z", ana, { body: null, photoUrl: "/p.jpg" }), "u-marisol")).toBe("Ana: Photo");
    expect(lastMessageLine(null, "u-marisol")).toBe("");
  });

  it("lists readers as 'Seen by Ana', 'Seen by Ana and Rui', 'Seen by Ana, Rui and Thaddeus'", () => {
    expect(seenByText(["Ana"])).toBe("Seen by Ana");
    expect(seenByText(["Ana", "Rui"])).toBe("Seen by Ana and Rui");
    expect(seenByText(["Ana", "Rui", "Thaddeus"])).toBe("Seen by Ana, Rui and Thaddeus");
    expect(seenByText([])).toBe("");
  });

  it("merges pages oldest first, each message once, the later copy winning", () => {
    const first = [message("b", "2026-01-01T10:01:00Z"), message("a", "2026-01-01T10:00:00Z")];
    const deleted = message("b", "2026-01-01T10:01:00Z", marisol, { deleted: true, body: null });
    const merged = mergeMessages(first, [deleted, message("c", "2026-01-01T10:02:00Z")]);
    expect(merged.map((m) => m.id)).toEqual(["a", "b", "c"]);
    expect(merged[1]!.deleted).toBe(true);
  });

  it("takes a message into an open thread once, however often and whichever way it comes, and moves one person's read position", () => {
    const thread = {
      conversation: { readPositions: [{ userId: "u-ana", firstName: "Ana", lastReadMessageId: "a" }] },
      messages: [message("a", "2026-01-01T10:00:00Z")],
      hasMore: true,
    } as unknown as ThreadValue;
    const arrived = message("b", "2026-01-01T10:01:00Z", ana);
    const twice = withMessage(withMessage(thread, arrived), arrived);
    expect(twice.messages.map((m) => m.id)).toEqual(["a", "b"]);
    expect(twice.hasMore).toBe(true);
    const read = withReadPosition(twice, { userId: "u-ana", firstName: "Ana", lastReadMessageId: "b" });
    expect(read.conversation.readPositions).toEqual([{ userId: "u-ana", firstName: "Ana", lastReadMessageId: "b" }]);
    expect(withReadPosition(twice, { userId: "u-gone", firstName: "Gone", lastReadMessageId: "b" }).conversation.readPositions).toEqual(
      thread.conversation.readPositions,
    );
  });

  it("erases a message where it is shown and in the quotes of it, and never adds one that is not", () => {
    const quote = { id: "a", authorFirstName: "Marisol", excerpt: "text a", photo: false, deleted: false };
    const thread = {
      conversation: { readPositions: [] },
      messages: [message("a", "2026-01-01T10:00:00Z"), message("b", "2026-01-01T10:01:00Z", ana, { replyTo: quote })],
      hasMore: false,
    } as unknown as ThreadValue;
    const erased = message("a", "2026-01-01T10:00:00Z", marisol, { body: null, deleted: true });
    const after = withErased(thread, erased);
    expect(after.messages[0]).toEqual(erased);
    expect(after.messages[1]!.replyTo).toEqual({ ...quote, excerpt: null, deleted: true });
    expect(after.messages[1]!.body).toBe("text b");
    const elsewhere = message("z", "2025-12-01T10:00:00Z", marisol, { body: null, deleted: true });
    expect(withErased(thread, elsewhere).messages).toEqual(thread.messages);
  });

  it("quotes an edited message's new words in the replies shown, cut as the server cuts them, whether or not it is loaded", () => {
    const quote = (id: string) => ({ id, authorFirstName: "Marisol", excerpt: `text ${id}`, photo: false, deleted: false });
    const thread = {
      conversation: { readPositions: [] },
      messages: [
        message("b", "2026-01-01T10:01:00Z"),
        message("c", "2026-01-01T10:02:00Z", ana, { replyTo: quote("a") }),
        message("d", "2026-01-01T10:03:00Z", ana, { replyTo: quote("b") }),
      ],
      hasMore: true,
    } as unknown as ThreadValue;
    // 150 characters, each two UTF-16 units: the server's quote keeps the first 140 characters.
    const edited = message("b", "2026-01-01T10:01:00Z", marisol, { body: "😀".repeat(150), editedAt: "2026-01-01T10:05:00Z" });
    const after = withMessage(thread, edited);
    expect(after.messages[2]!.replyTo).toEqual({ ...quote("b"), excerpt: "😀".repeat(140) });
    expect(after.messages[1]!.replyTo).toEqual(quote("a"));
    // 'a' is before the loaded page: the live event leaves it out, its quote follows it.
    const older = message("a", "2026-01-01T10:00:00Z", marisol, { body: "Sunday instead?", editedAt: "2026-01-01T10:05:00Z" });
    const heard = withHeardMessage(thread, older);
    expect(heard.messages.map((m) => m.id)).toEqual(["b", "c", "d"]);
    expect(heard.messages[1]!.replyTo).toEqual({ ...quote("a"), excerpt: "Sunday instead?" });
  });

  it("puts a separator before each day and each other person's name under their latest read", () => {
    const now = new Date(2026, 0, 2, 12);
    const messages = [
      message("a", new Date(2026, 0, 1, 9).toISOString(), ana),
      message("b", new Date(2026, 0, 2, 9).toISOString(), marisol),
      message("c", new Date(2026, 0, 2, 10).toISOString(), ana),
    ];
    const reads = [
      { userId: "u-marisol", firstName: "Marisol", lastReadMessageId: "c" },
      { userId: "u-rui", firstName: "Rui", lastReadMessageId: "b" },
      { userId: "u-thaddeus", firstName: "Thaddeus", lastReadMessageId: "b" },
      // A reader's own message never carries their name.
      { userId: "u-ana", firstName: "Ana", lastReadMessageId: "c" },
    ];
    const items = threadItems(messages, reads, "u-marisol", now);
    expect(items.map((item) => (item.kind === "day" ? item.label : `${item.message.id}:${item.seenBy.join("+")}`))).toEqual([
      "Yesterday",
      "a:",
      "Today",
      "b:Rui+Thaddeus",
      "c:",
    ]);
  });

  it("names older days by weekday and date, with the year only when it is not this one", () => {
    const now = new Date(2026, 10, 26, 12);
    expect(dayLabel(new Date(2026, 10, 23, 12), now)).toBe("Monday 23 November");
    expect(dayLabel(new Date(2025, 10, 23, 12), now)).toBe("Sunday, 23 November 2025");
  });

  it("says who of a couple that approves together has accepted and whom it waits for", () => {
    expect(
      approvalLine([
        { firstName: "Ana", accepted: true },
        { firstName: "Rui", accepted: false },
      ]),
    ).toBe("Accepted by Ana, waiting for Rui");
    expect(approvalLine([{ firstName: "Ana", accepted: false }])).toBeNull();
  });
});

describe("an open thread's pages", () => {
  // A conversation's messages 1..n, a minute apart, as the server numbers and dates them.
  const numbered = (n: number) =>
    message(String(n).padStart(4, "0"), new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(), n % 2 ? ana : marisol);
  const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => numbered(from + i));
  const conversation = { readPositions: [] } as unknown as ThreadValue["conversation"];
  const shownOf = (from: number, to: number, hasMore = from > 1): ThreadValue => ({ conversation, messages: range(from, to), hasMore });
  /** The server's newest page of a conversation of `total` messages, and the page before a message. */
  const newest = (total: number, limit = 30) => ({ data: range(Math.max(1, total - limit + 1), total), hasMore: total > limit });
  const before = (first: number, limit = 30) => ({ data: range(Math.max(1, first - limit), first - 1), hasMore: first - limit > 1 });
  const numbers = (thread: ThreadValue) => thread.messages.map((m) => Number(m.id));

  it("never leaves a hole: shown 1-30 and a newest page of 41-70 is the newest page, and 31-40 come with 'Load older'", () => {
    const reloaded = withNewestPage(shownOf(1, 30), conversation, newest(70));
    expect(numbers(reloaded)).toEqual(range(41, 70).map((m) => Number(m.id)));
    expect(reloaded.hasMore).toBe(true);
    // The live stream's late copies of 31-40 stay out (they are older than the newest shown)...
    const heard = range(31, 40).reduce(withHeardMessage, reloaded);
    expect(numbers(heard)).toEqual(numbers(reloaded));
    // ...and 'Load older' asks before 41: 11-40, then 1-10, nothing skipped.
    const older = withOlderPage(heard, numbered(41).id, before(41));
    expect(numbers(older)).toEqual(range(11, 70).map((m) => Number(m.id)));
    const all = withOlderPage(older, numbered(11).id, before(11));
    expect(numbers(all)).toEqual(range(1, 70).map((m) => Number(m.id)));
    expect(all.hasMore).toBe(false);
  });

  it("adds a newest page that meets what is shown, keeping older pages loaded and what they said of older messages", () => {
    // 1-30 loaded through 'Load older' (nothing older), newest page 21-50: one list 1-50.
    const met = withNewestPage(shownOf(1, 30, false), conversation, newest(50));
    expect(numbers(met)).toEqual(range(1, 50).map((m) => Number(m.id)));
    expect(met.hasMore).toBe(false);
    // Shown 11-40 with older left, newest page 21-50: 11-50, older still left.
    expect(withNewestPage(shownOf(11, 40), conversation, newest(50))).toMatchObject({ hasMore: true });
    // A page holding the whole conversation always meets; an empty thread takes the page.
    expect(numbers(withNewestPage(shownOf(1, 3, false), conversation, newest(20)))).toHaveLength(20);
    expect(numbers(withNewestPage(shownOf(1, 0, false), conversation, newest(5)))).toEqual([1, 2, 3, 4, 5]);
    expect(numbers(withNewestPage(null, conversation, newest(5)))).toEqual([1, 2, 3, 4, 5]);
  });

  it("drops an older page that no longer meets the thread (it was replaced by its newest page meanwhile)", () => {
    const replaced = withNewestPage(shownOf(1, 30), conversation, newest(70));
    // 'Load older' asked before 1 while 1-30 were shown; its answer comes after the replacement.
    expect(withOlderPage(replaced, numbered(1).id, { data: [], hasMore: false })).toBe(replaced);
  });

  it("keeps the messages shown one unbroken run of the conversation, ending at its newest, whatever was shown before", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 0, max: 120 }),
        fc.integer({ min: 0, max: 3 }),
        (last, length, written, olderPages) => {
          // Shown: an unbroken run ending at `last` (its newest page, then older pages); then
          // `written` more messages, and the newest page is read again.
          const first = Math.max(1, last - length);
          const total = last + written;
          let thread = withNewestPage(shownOf(first, last), conversation, newest(total));
          for (let page = 0; page < olderPages && thread.hasMore; page++)
            thread = withOlderPage(thread, thread.messages[0]!.id, before(Number(thread.messages[0]!.id)));
          const shown = numbers(thread);
          expect(shown.at(-1)).toBe(total);
          expect(shown).toEqual(range(shown[0]!, total).map((m) => Number(m.id)));
          expect(thread.hasMore).toBe(shown[0]! > 1);
        },
      ),
    );
  });
});

describe("what is marked read", () => {
  const mine = (id: string, minute: number) => message(id, `2026-01-01T10:0${minute}:00Z`, marisol);
  const theirs = (id: string, minute: number) => message(id, `2026-01-01T10:0${minute}:00Z`, ana);
  const seen = { visible: true, atBottom: true };

  it("is the others' newest message once the reader sees it: page visible and scrolled to the bottom", () => {
    const messages = [theirs("a", 0), theirs("b", 1)];
    expect(readUpTo(messages, "u-marisol", "a", seen)).toBe("b");
    expect(readUpTo(messages, "u-marisol", null, seen)).toBe("b");
    // Scrolled up, or in a hidden tab: nothing is read.
    expect(readUpTo(messages, "u-marisol", "a", { visible: true, atBottom: false })).toBeNull();
    expect(readUpTo(messages, "u-marisol", "a", { visible: false, atBottom: true })).toBeNull();
    // Read already: nothing to move.
    expect(readUpTo(messages, "u-marisol", "b", seen)).toBeNull();
  });

  it("is never one's own message", () => {
    // One's own newest: the others' newest before it, once, and nothing when that is read.
    expect(readUpTo([theirs("a", 0), mine("b", 1)], "u-marisol", null, seen)).toBe("a");
    expect(readUpTo([theirs("a", 0), mine("b", 1)], "u-marisol", "a", seen)).toBeNull();
    expect(readUpTo([mine("a", 0), mine("b", 1)], "u-marisol", null, seen)).toBeNull();
    expect(readUpTo([], "u-marisol", null, seen)).toBeNull();
    // A position on one's own message (read elsewhere) after the others' newest: nothing to move.
    expect(readUpTo([theirs("a", 0), mine("b", 1)], "u-marisol", "b", seen)).toBeNull();
    // A position before every message shown (an older page): the newest of the others'.
    expect(readUpTo([theirs("a", 0), mine("b", 1)], "u-marisol", "older", seen)).toBe("a");
  });
});
