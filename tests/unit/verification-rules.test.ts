import { describe, expect, it } from "vitest";
import {
  afterDecision,
  afterOwnPhotoChange,
  decisionNotice,
  photoBadge,
  pickPose,
  POSE_IDS,
  poseLabel,
  refusalLabel,
  REFUSAL_REASONS,
  submitProblem,
  ALREADY_PENDING,
  ALREADY_VERIFIED,
} from "@/lib/verification/rules";
import { selfiePoseSchema, verificationDecisionSchema } from "@/lib/verification/schemas";

describe("photo verification states", () => {
  it("takes a selfie when not started or refused, never while one waits or once verified", () => {
    expect(submitProblem("not_started")).toBeNull();
    expect(submitProblem("refused")).toBeNull();
    expect(submitProblem("pending")).toBe(ALREADY_PENDING);
    expect(submitProblem("verified")).toBe(ALREADY_VERIFIED);
  });

  it("leaves a decision as verified or refused", () => {
    expect(afterDecision("approve")).toBe("verified");
    expect(afterDecision("refuse")).toBe("refused");
  });

  it("asks again when a partner's own photo changes, keeping a selfie that waits", () => {
    expect(afterOwnPhotoChange("verified")).toBe("not_started");
    expect(afterOwnPhotoChange("refused")).toBe("not_started");
    expect(afterOwnPhotoChange("pending")).toBe("pending");
    expect(afterOwnPhotoChange("not_started")).toBe("not_started");
  });
});

describe("the couple's photo badge", () => {
  it("is none, one partner's or both partners'", () => {
    expect(photoBadge(0)).toBeNull();
    expect(photoBadge(1)).toBe("Photo verified");
    expect(photoBadge(2)).toBe("Both photo verified");
  });
});

describe("poses and reasons", () => {
  it("picks each pose of the list across the random range, never outside it", () => {
    expect(pickPose(0)).toBe(POSE_IDS[0]);
    expect(pickPose(0.999999)).toBe(POSE_IDS.at(-1));
    const picked = new Set(Array.from({ length: 100 }, (_, i) => pickPose(i / 100)));
    expect([...picked].sort()).toEqual([...POSE_IDS].sort());
    expect(poseLabel("three_fingers")).toBe("Hold up three fingers");
  });

  it("accepts only the listed poses and reasons; a refusal needs its reason", () => {
    expect(selfiePoseSchema.safeParse({ pose: "left_ear" }).success).toBe(true);
    expect(selfiePoseSchema.safeParse({ pose: "handstand" }).success).toBe(false);
    expect(verificationDecisionSchema.safeParse({ decision: "approve" }).success).toBe(true);
    expect(verificationDecisionSchema.safeParse({ decision: "refuse" }).success).toBe(false);
    expect(verificationDecisionSchema.safeParse({ decision: "refuse", reason: "face" }).success).toBe(true);
    expect(verificationDecisionSchema.safeParse({ decision: "refuse", reason: "rude" }).success).toBe(false);
  });

  it("tells the partner the decision, a refusal with its reason's words", () => {
    expect(decisionNotice({ status: "verified", reason: null }).title).toBe("Your photo is verified");
    for (const reason of REFUSAL_REASONS)
      expect(decisionNotice({ status: "refused", reason: reason.key }).message).toContain(refusalLabel(reason.key));
  });
});
