import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import type { CoupleRecord } from "@/lib/safety/couple-record";

const COUPLE = "6f1c2d3e-4a5b-4c6d-8e7f-901a2b3c4d5e";
const READER_COUPLE = "0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d";
const read = vi.hoisted(() => ({ record: undefined as unknown }));

vi.mock("@/lib/auth/current-session", () => ({
  requireCompleteProfile: async () => ({ userId: "u1", couple: { userId: "u1", coupleId: READER_COUPLE, role: "moderator" } }),
}));
vi.mock("@/lib/with-db", () => ({ withDb: (run: (db: object) => unknown) => run({}) }));
vi.mock("@/lib/safety/couple-record", () => ({ coupleRecord: async () => read.record }));
vi.mock("@/lib/verification/queries", () => ({ partnerVerifications: async () => [] }));
// The page's client forms, as markers of what it offers.
vi.mock("@/components/moderation/CoupleActions", () => ({ CoupleActions: ({ kind }: { kind: string }) => `[lift ${kind}]` }));
vi.mock("@/components/moderation/ActOnCouple", () => ({ ActOnCouple: () => "[act]" }));
vi.mock("@/components/moderation/HeldHellos", () => ({ HeldHellos: () => null }));

const { default: ModerationCouplePage } = await import("@/app/(app)/moderation/couples/[coupleId]/page");

const record = (leftToAnother: CoupleRecord["leftToAnother"]): CoupleRecord => ({
  couple: { id: COUPLE, coupleName: "Ana & Kai", status: "active", createdAt: "2026-01-01T00:00:00.000Z", ageDays: 300, partnerIds: [] },
  reports: [],
  blocksReceived: { count: 0, capped: false },
  hellos30Days: { sent: 0, accepted: 0, unanswered: 0 },
  actions: [
    {
      id: "s1",
      kind: "restrict",
      reason: "spam",
      note: null,
      createdAt: "2026-11-01T00:00:00.000Z",
      createdByUserId: "m1",
      liftedAt: null,
      liftReason: null,
      bySpamRules: false,
    } as CoupleRecord["actions"][number],
  ],
  leftToAnother,
  held: [],
});

const page = async (leftToAnother: CoupleRecord["leftToAnother"]) => {
  read.record = record(leftToAnother);
  const element = await ModerationCouplePage({ params: Promise.resolve({ coupleId: COUPLE }), searchParams: Promise.resolve({}) });
  return renderToStaticMarkup(element as ReactElement);
};

describe("a couple's moderator page", () => {
  // Acting on a couple the reader's couple reported is refused (lib/safety/moderators.ts assertMayActOn): a lift too.
  it("offers the actions, and a standing action's lift, only where the reader may act", async () => {
    const free = await page(null);
    expect(free).toContain("[act]");
    expect(free).toContain("[lift restrict]");

    const reported = await page("reported");
    expect(reported).toContain("Your couple reported this couple: another moderator will act on it.");
    expect(reported).not.toContain("[act]");
    expect(reported).not.toContain("[lift restrict]");
  });
});
