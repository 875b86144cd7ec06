/**
 * Photo verification: a partner sends a selfie in a pose the server picked, a moderator compares
 * it with the couple's photos and approves or refuses it. What each state allows, the badge a
 * couple earns from its two partners, and the texts. Pure and browser-safe.
 */

/** The poses a selfie is asked in: easy to do, hard to find in an old photo. */
export const POSES = [
  { id: "three_fingers", label: "Hold up three fingers" },
  { id: "left_ear", label: "Touch your left ear" },
  { id: "thumbs_up", label: "Give a thumbs up" },
  { id: "peace_sign", label: "Make a peace sign beside your face" },
  { id: "chin_on_fist", label: "Rest your chin on your fist" },
] as const;
export type PoseId = (typeof POSES)[number]["id"];
export const POSE_IDS = POSES.map((pose) => pose.id) as [PoseId, ...PoseId[]];
export const poseLabel = (id: string): string => POSES.find((pose) => pose.id === id)?.label ?? id;

/** A pose picked at random; `random` in [0, 1) (Math.random by default, a fixed value in tests). */
export const pickPose = (random: number = Math.random()): PoseId =>
  POSE_IDS[Math.min(POSE_IDS.length - 1, Math.floor(random * POSE_IDS.length))]!;

/** Why a moderator refuses a selfie: a short fixed list, each said to the partner as it is. */
export const REFUSAL_REASONS = [
  { key: "pose", label: "The pose is not the one we asked for" },
  { key: "face", label: "Your face is not clearly visible" },
  { key: "mismatch", label: "The selfie does not match your photos" },
  { key: "quality", label: "The photo is too dark or blurred" },
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number]["key"];
export const REFUSAL_KEYS = REFUSAL_REASONS.map((reason) => reason.key) as [RefusalReason, ...RefusalReason[]];
export const refusalLabel = (key: string): string => REFUSAL_REASONS.find((reason) => reason.key === key)?.label ?? key;

export const VERIFICATION_STATUSES = ["not_started", "pending", "verified", "refused"] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export const ALREADY_PENDING = "Your selfie is waiting for a moderator. We will tell you when it is decided.";
export const ALREADY_VERIFIED = "Your photo is already verified.";
export const POSE_CHANGED = "We asked for another pose since. Please take the selfie again in the pose shown.";
export const NOT_PENDING = "This selfie was already decided, or withdrawn.";

/** Why a partner in this state cannot send a selfie now, or null when they can (not started, refused). */
export function submitProblem(status: VerificationStatus): string | null {
  if (status === "pending") return ALREADY_PENDING;
  if (status === "verified") return ALREADY_VERIFIED;
  return null;
}

/** A moderator's decision on a pending selfie: the state it leaves. */
export const afterDecision = (decision: "approve" | "refuse"): VerificationStatus => (decision === "approve" ? "verified" : "refused");

/**
 * Replacing a partner's own photo asks again: a decision about the old photo no longer holds. A
 * pending selfie stays pending (the moderator compares it with the photo shown then, the new one).
 */
export const afterOwnPhotoChange = (status: VerificationStatus): VerificationStatus =>
  status === "verified" || status === "refused" ? "not_started" : status;

/** The badges, apart from 'Verified Couple' (e-mail) and each explained where it is shown. */
export type PhotoBadge = "Photo verified" | "Both photo verified";
export const PHOTO_BADGE_MEANINGS: Record<PhotoBadge, string> = {
  "Photo verified": "A moderator compared one partner's posed selfie with their photos",
  "Both photo verified": "A moderator compared both partners' posed selfies with their photos",
};

/** The couple's photo badge from how many of its partners are verified (0-2): none, one, both. */
export function photoBadge(verifiedPartners: number): PhotoBadge | null {
  if (verifiedPartners >= 2) return "Both photo verified";
  return verifiedPartners === 1 ? "Photo verified" : null;
}

/** Selfies sent per person per day (lib/rate-limit.ts `Limit` shape): a few tries, not a flood for the queue. */
export const SELFIES_PER_USER = {
  bucket: "verification-selfie:user",
  limit: 5,
  windowSeconds: 24 * 60 * 60,
  message: "You sent several selfies today. Please try again tomorrow.",
} as const;

/** Pending selfies per page of the moderators' queue. */
export const VERIFICATION_PAGE_SIZE = 20;

/** What a partner sees of their own verification (`GET /api/verification`). */
export type MyVerification = {
  status: VerificationStatus;
  /** The pose to take the selfie in (pending: the one it was taken in). */
  pose: { id: string; label: string };
  submittedAt: string | null;
  decidedAt: string | null;
  refusal: { reason: string; label: string } | null;
};

/** The date a decision shows with ('Verified on 29 November 2026'). */
export const decisionDate = (at: string | Date): string =>
  new Date(at).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/** The partner's notice of the decision. */
export function decisionNotice(decision: { status: "verified" | "refused"; reason: string | null }): { title: string; message: string } {
  if (decision.status === "verified")
    return {
      title: "Your photo is verified",
      message: "A moderator approved your selfie. Your couple now shows the 'Photo verified' badge.",
    };
  return {
    title: "Your selfie was not approved",
    message: `A moderator could not verify your photo: ${refusalLabel(decision.reason ?? "")}. You can try again from Settings › Photo verification.`,
  };
}

/** Where the settings section is (the notice's link). */
export const VERIFICATION_SETTINGS = "/settings/verification";
