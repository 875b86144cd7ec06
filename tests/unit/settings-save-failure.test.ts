import { beforeEach, describe, expect, it, vi } from "vitest";
import { COUPLE_MESSAGES } from "@/lib/couples/rules";
import { PROFILE_MESSAGES } from "@/lib/profile/rules";
import { ApiError } from "@/lib/transport/client";

let failure: unknown;
// The photos' pipeline and the transport under it: the save's answer is `failure`.
vi.mock("@/lib/images/client/send-photos", () => ({
  sendWithPhotos: async () => {
    throw failure;
  },
}));

const { saveSettingsForm } = await import("@/lib/settings/client/save");

const PROFILE_FAILED = PROFILE_MESSAGES.updateFailed;
const save = () => saveSettingsForm("/api/settings/profile", new FormData(), [], PROFILE_FAILED);

describe("a settings save that fails", () => {
  beforeEach(() => {
    failure = undefined;
  });

  // Spec section 8 (profile/couple): the server's message, else 'Failed to update profile' / 'Failed to update couple'.
  it("names the spec's texts", () => {
    expect(PROFILE_MESSAGES.updateFailed).toBe("Failed to update profile");
    expect(COUPLE_MESSAGES.updateFailed).toBe("Failed to update couple");
  });

  it("without a message of the server's says the form's own failure text, as the spec words it", async () => {
    failure = new ApiError(0, null, "Upload failed - network error");
    expect(await save()).toEqual({ ok: false, message: PROFILE_FAILED, fields: {} });
    failure = new ApiError(502, null, "Upload failed with status 502");
    expect(await save()).toEqual({ ok: false, message: PROFILE_FAILED, fields: {} });
  });

  it("shows the server's refusal as it is, with its fields", async () => {
    failure = new ApiError(400, "VALIDATION_ERROR", "First name is required", { firstName: "First name is required" });
    expect(await save()).toEqual({ ok: false, message: "First name is required", fields: { firstName: "First name is required" } });
  });
});
