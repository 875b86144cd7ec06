import { describe, expect, it } from "vitest";
import {
  approvalOutcome,
  blocksNewRequest,
  connectionStateOf,
  dailyRequestLimit,
  senderStatus,
  viewerStatus,
} from "@/lib/connections/rules";

const DAY = 24 * 60 * 60 * 1000;
const now = new Date("2026-06-01T12:00:00Z");
const sent = (daysAgo: number, status: "pending" | "accepted" | "declined" = "pending") => {
  const createdAt = new Date(now.getTime() - daysAgo * DAY);
  return { status, createdAt, expiresAt: new Date(createdAt.getTime() + 30 * DAY), toCoupleId: "asked" as string | null };
};
/** The same request once the couple it asked went with its last partner's account. */
const toDeleted = (request: ReturnType<typeof sent>) => ({ ...request, toCoupleId: null });

describe("connection rules", () => {
  it("sends 3 a day while the couple is new or limited (lib/safety/spam-rules.ts), else 10", () => {
    expect(dailyRequestLimit("new").limit).toBe(3);
    expect(dailyRequestLimit("limited").limit).toBe(3);
    expect(dailyRequestLimit("trusted").limit).toBe(10);
  });

  it("stops a new request while one is open or the last is under 90 days old", () => {
    expect(blocksNewRequest(null, false, now)).toBe(false);
    expect(blocksNewRequest(sent(1), false, now)).toBe(true);
    expect(blocksNewRequest(sent(31, "declined"), false, now)).toBe(true);
    expect(blocksNewRequest(sent(89.9), false, now)).toBe(true);
    expect(blocksNewRequest(sent(90), false, now)).toBe(false);
  });

  it("lets either couple say hello again at once after a block ended their conversation", () => {
    expect(blocksNewRequest(sent(1, "accepted"), false, now)).toBe(true);
    expect(blocksNewRequest(sent(1, "accepted"), true, now)).toBe(false);
    // A hello after the block follows the usual rules: open, or declined under 90 days ago.
    expect(blocksNewRequest(sent(1), true, now)).toBe(true);
    expect(blocksNewRequest(sent(31, "declined"), true, now)).toBe(true);
  });

  it("shows the sender pending for a declined request until it expires", () => {
    expect(senderStatus(sent(1, "declined"), now)).toBe("pending");
    expect(senderStatus(sent(31, "declined"), now)).toBe("expired");
    expect(senderStatus(sent(31), now)).toBe("expired");
    expect(senderStatus(sent(40, "accepted"), now)).toBe("accepted");
  });

  it("shows the sender a hello to a couple since deleted as closed, declined or not, and an accepted one accepted", () => {
    expect(senderStatus(toDeleted(sent(1)), now)).toBe("closed");
    expect(senderStatus(toDeleted(sent(1, "declined")), now)).toBe("closed");
    expect(senderStatus(toDeleted(sent(31)), now)).toBe("closed");
    expect(senderStatus(toDeleted(sent(1, "accepted")), now)).toBe("accepted");
    expect(viewerStatus(toDeleted(sent(1, "declined")), true, now)).toBe("closed");
  });

  it("shows each side its own view: the sender never a decline, the receiving couple what it did", () => {
    expect(viewerStatus(sent(1, "declined"), true, now)).toBe("pending");
    expect(viewerStatus(sent(31, "declined"), true, now)).toBe("expired");
    expect(viewerStatus(sent(1, "declined"), false, now)).toBe("declined");
    expect(viewerStatus(sent(31, "declined"), false, now)).toBe("declined");
    expect(viewerStatus(sent(1), false, now)).toBe("pending");
    expect(viewerStatus(sent(31), false, now)).toBe("expired");
    expect(viewerStatus(sent(40, "accepted"), false, now)).toBe("accepted");
  });

  it("needs one acceptance, or every partner's when both must approve", () => {
    expect(approvalOutcome(false, ["a", "b"], [{ userId: "a", accepted: true }])).toEqual({ status: "accepted" });
    expect(approvalOutcome(true, ["a", "b"], [{ userId: "a", accepted: true }])).toEqual({ status: "pending", waitingFor: "b" });
    expect(approvalOutcome(true, ["a", "b"], [{ userId: "b", accepted: false }])).toEqual({ status: "pending", waitingFor: "a" });
    expect(
      approvalOutcome(
        true,
        ["a", "b"],
        [
          { userId: "a", accepted: true },
          { userId: "b", accepted: true },
        ],
      ),
    ).toEqual({ status: "accepted" });
    expect(approvalOutcome(true, ["a"], [{ userId: "a", accepted: true }])).toEqual({ status: "accepted" });
  });

  it("offers 'Say hello' on a card exactly where the send would take one (blocksNewRequest)", () => {
    const mine = (request: ReturnType<typeof sent>) => ({ ...request, viewerSent: true });
    const theirs = (request: ReturnType<typeof sent>) => ({ ...request, viewerSent: false });
    const state = (...args: Parameters<typeof connectionStateOf>) => connectionStateOf(...args).state;
    const cases = [
      [null, null],
      [null, mine(sent(1))],
      [null, theirs(sent(1))],
      [null, mine(sent(1, "declined"))],
      [null, theirs(sent(1, "declined"))],
      [null, mine(sent(31))],
      [null, theirs(sent(60))],
      [null, mine(sent(90))],
      [{ id: "talk", ended: true }, mine(sent(5, "accepted"))],
      [{ id: "talk", ended: true }, theirs(sent(1))],
    ] as const;
    for (const [conversation, latest] of cases)
      expect(state(conversation, latest, now) === "none", JSON.stringify([conversation, latest])).toBe(
        !blocksNewRequest(latest, conversation !== null, now),
      );
    expect(cases.map(([conversation, latest]) => state(conversation, latest, now))).toEqual([
      "none",
      "requested",
      "incoming",
      // A decline is never told: its sender reads it as sent until it expires; the couple who declined waits too.
      "requested",
      "later",
      // Expired (past the `openSince` window of 30 days), yet under 90 days old: no 'Say hello' either way.
      "later",
      "later",
      "none",
      // A block since lifted ended their conversation: either may say hello again at once.
      "none",
      "incoming",
    ]);
    expect(connectionStateOf({ id: "talk", ended: false }, mine(sent(1, "accepted")), now)).toEqual({
      state: "connected",
      conversationId: "talk",
    });
  });
});
