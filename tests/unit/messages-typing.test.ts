import { afterEach, describe, expect, it, vi } from "vitest";
import { connectStream, type EventSourceLike } from "@/lib/live/client/stream";
import { createListener, parseEphemeral } from "@/lib/live/listener";
import { STREAM_EVENTS } from "@/lib/registry/live-client";
import {
  nextExpiry,
  stillTyping,
  TYPING_SEND_EVERY_MS,
  TYPING_SHOWN_MS,
  typingDue,
  typingLine,
  withoutTypist,
  withTypist,
} from "@/lib/messages/typing-view";

/** '... is typing': the composer's throttle, how long a typist shows, the line, and the stream's unnumbered event. */

const marisol = { userId: "u-marisol", firstName: "Marisol" };
const thaddeus = { userId: "u-thaddeus", firstName: "Thaddeus" };

describe("the composer's throttle", () => {
  it("tells the others at once, then at most every 3 s while the words change", () => {
    expect(typingDue(null, 1_000)).toBe(true);
    expect(typingDue(1_000, 1_000 + TYPING_SEND_EVERY_MS - 1)).toBe(false);
    expect(typingDue(1_000, 1_000 + TYPING_SEND_EVERY_MS)).toBe(true);
    // Ten keystrokes a second for 10 s: four signals (0, 3, 6, 9 s).
    let last: number | null = null;
    let sent = 0;
    for (let now = 0; now < 10_000; now += 100)
      if (typingDue(last, now)) {
        last = now;
        sent++;
      }
    expect(sent).toBe(4);
  });
});

describe("who shows as typing", () => {
  it("shows a typist for 5 s after their last signal, each new signal keeping them on", () => {
    let typists = withTypist([], marisol, 0);
    expect(typists).toEqual([{ ...marisol, until: TYPING_SHOWN_MS }]);
    expect(stillTyping(typists, TYPING_SHOWN_MS - 1)).toHaveLength(1);
    expect(stillTyping(typists, TYPING_SHOWN_MS)).toEqual([]);
    typists = withTypist(typists, marisol, 3_000);
    expect(stillTyping(typists, 7_000)).toHaveLength(1);
    expect(nextExpiry(typists)).toBe(3_000 + TYPING_SHOWN_MS);
    expect(nextExpiry([])).toBeNull();
  });

  it("keeps each typist's place, so the line changes only when who is typing does, and drops one whose message arrived", () => {
    let typists = withTypist(withTypist([], marisol, 0), thaddeus, 1_000);
    expect(typingLine(typists)).toBe("Marisol and Thaddeus are typing…");
    typists = withTypist(typists, marisol, 2_000);
    expect(typingLine(typists)).toBe("Marisol and Thaddeus are typing…");
    expect(nextExpiry(typists)).toBe(1_000 + TYPING_SHOWN_MS);
    expect(typingLine(withoutTypist(typists, thaddeus.userId))).toBe("Marisol is typing…");
    expect(typingLine(stillTyping(typists, 1_000 + TYPING_SHOWN_MS))).toBe("Marisol is typing…");
  });

  it("names one, two or three people, and nobody with no words", () => {
    expect(typingLine([])).toBe("");
    expect(typingLine([marisol])).toBe("Marisol is typing…");
    expect(typingLine([marisol, thaddeus, { firstName: "Ana" }])).toBe("Marisol, Thaddeus and Ana are typing…");
  });
});

describe("the listener's ephemeral messages", () => {
  it("hands a message to the streams of the people it names, a plain wake-up to the ids listed, and drops a malformed one", async () => {
    let deliver!: (payload: string) => void;
    const listener = createListener(async (onPayload) => {
      deliver = onPayload;
      return async () => {};
    });
    await listener.ready();
    const woken: Record<string, unknown[]> = { a: [], b: [], c: [] };
    for (const id of ["a", "b", "c"]) listener.subscribe(id, (message) => woken[id]!.push(message ?? "rows"));
    for (const id of ["a", "b", "c"]) woken[id]!.length = 0;
    const message = { kind: "typing", to: ["a", "b"], subjectId: "conversation", payload: { userId: "c" } };
    deliver(JSON.stringify(message));
    deliver("c");
    deliver('{"kind": "typing", "to": "a"');
    deliver(JSON.stringify({ ...message, to: [1] }));
    expect(woken).toEqual({ a: [message], b: [message], c: ["rows"] });
    expect(parseEphemeral("a,b")).toBeNull();
    await listener.close();
  });
});

describe("an unnumbered event in the browser's stream", () => {
  afterEach(() => vi.useRealTimers());

  it("is handed on with no id, and the stream resumes from the last numbered event", () => {
    vi.useFakeTimers();
    const sources: { url: string; source: EventSourceLike; listeners: Map<string, (event: MessageEvent<string>) => void> }[] = [];
    const events: [string, unknown, string][] = [];
    const connection = connectStream("/api/stream", {
      open: (url) => {
        const listeners = new Map<string, (event: MessageEvent<string>) => void>();
        const source: EventSourceLike = {
          onopen: null,
          onerror: null,
          addEventListener: (name, listener) => listeners.set(name, listener),
          close: () => {},
        };
        sources.push({ url, source, listeners });
        return source;
      },
      events: STREAM_EVENTS,
      unnumbered: ["typing"],
      onEvent: (name, data, id) => events.push([name, data, id]),
      onUp: () => {},
    });
    const first = sources[0]!;
    first.source.onopen?.(new Event("open"));
    first.listeners.get("unread")!(new MessageEvent("unread", { data: "{}", lastEventId: "8" }));
    // The browser gives an event without an id the last one it saw.
    first.listeners.get("typing")!(new MessageEvent("typing", { data: JSON.stringify(marisol), lastEventId: "8" }));
    expect(events).toEqual([
      ["unread", {}, "8"],
      ["typing", marisol, ""],
    ]);
    first.source.onerror?.(new Event("error"));
    vi.advanceTimersByTime(1_000);
    expect(sources[1]!.url).toBe("/api/stream?lastEventId=8");
    connection.stop();
  });
});
