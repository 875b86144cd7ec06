import { beforeEach, describe, expect, it, vi } from "vitest";
import { STAGED_PHOTO_EXPIRED_MESSAGE } from "@/lib/images/rules";
import type { PickedPhoto } from "@/lib/images/client/photo";

type Sent = { url: string; form: FormData };
const sent: Sent[] = [];
let answer: (url: string, form: FormData, report?: (fraction: number) => void) => { status: number; json: unknown };

// The transport's upload: the JSON of a 2xx answer, else its ApiError.
vi.mock("@/lib/transport/upload", () => ({
  uploadForm: async (url: string, form: FormData, options: { onProgress?(fraction: number): void } = {}) => {
    sent.push({ url, form });
    options.onProgress?.(0.5);
    options.onProgress?.(1);
    const { status, json } = answer(url, form);
    if (status >= 200 && status < 300) return json;
    const { ApiError } = await import("@/lib/transport/client");
    const error = (json as { error: { code: string; message: string; fields?: Record<string, string> } }).error;
    throw new ApiError(status, error.code, error.message, error.fields);
  },
}));
// The worker's compression: a photo of ~1 MB, as a phone's cropped photo compresses to.
vi.mock("@/lib/images/client/compress", () => ({
  compressImage: async (file: File) => new File([new Uint8Array(1_000_000)], file.name, { type: "image/jpeg" }),
}));

const { sendWithPhotos } = await import("@/lib/images/client/send-photos");

const picked = (name: string): PickedPhoto => ({ dataUrl: "data:image/jpeg;base64,/9j/", name, size: 3, width: 1800, height: 1350 });
const parts = (photos: PickedPhoto[]) =>
  photos.map((photo, i) => ({
    field: i === 0 ? "coupleProfileImage" : "couplePhotos",
    fileName: `p${i}.jpg`,
    photo,
    stagedAs: i === 0 ? ("couple-main" as const) : ("couple-photo" as const),
  }));

let nextId = 0;
beforeEach(() => {
  sent.length = 0;
  answer = (url) =>
    url === "/api/uploads" ? { status: 201, json: { data: { id: `id-${++nextId}` } } } : { status: 201, json: { success: true } };
});

describe("sendWithPhotos (onboarding step 2 and the couple settings)", () => {
  it("sends six photos one per request, then a save that names them, with progress that only grows to 1", async () => {
    const progress: number[] = [];
    const photos = ["a", "b", "c", "d", "e", "f"].map(picked);
    const form = new FormData();
    form.set("couple_name", "Ada & Grace");
    const result = await sendWithPhotos("/api/onboarding/step2", form, parts(photos), {
      onProgress: (_, fraction) => progress.push(fraction),
    });
    expect(result).toEqual({ success: true });
    expect(sent.map((s) => s.url)).toEqual([...Array(6).fill("/api/uploads"), "/api/onboarding/step2"]);
    for (const upload of sent.slice(0, 6)) expect(upload.form.getAll("photo")).toHaveLength(1);
    expect(sent.map((s) => s.form.get("kind"))).toEqual(["couple-main", ...Array(5).fill("couple-photo"), null]);
    const save = sent.at(-1)!.form;
    expect(save.get("coupleProfileImage")).toBe(`id-${nextId - 5}`);
    expect(save.getAll("couplePhotos")).toHaveLength(5);
    expect([...save.values()].every((value) => typeof value === "string")).toBe(true);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(1);
  });

  it("does not send the photos again when a save is refused for its text, unless the server says they expired", async () => {
    const photos = [picked("a"), picked("b")];
    const uploaded = new WeakMap<PickedPhoto, string>();
    answer = (url) =>
      url === "/api/uploads"
        ? { status: 201, json: { data: { id: `id-${++nextId}` } } }
        : { status: 400, json: { error: { code: "VALIDATION_ERROR", message: "Bio too short" } } };
    await expect(sendWithPhotos("/api/onboarding/step2", new FormData(), parts(photos), { uploaded })).rejects.toThrow("Bio too short");
    expect(sent.filter((s) => s.url === "/api/uploads")).toHaveLength(2);

    sent.length = 0;
    answer = () => ({ status: 400, json: { error: { code: "VALIDATION_ERROR", message: STAGED_PHOTO_EXPIRED_MESSAGE } } });
    await expect(sendWithPhotos("/api/onboarding/step2", new FormData(), parts(photos), { uploaded })).rejects.toThrow(
      STAGED_PHOTO_EXPIRED_MESSAGE,
    );
    expect(sent.map((s) => s.url)).toEqual(["/api/onboarding/step2"]);

    sent.length = 0;
    answer = (url) => (url === "/api/uploads" ? { status: 201, json: { data: { id: `id-${++nextId}` } } } : { status: 201, json: {} });
    await sendWithPhotos("/api/onboarding/step2", new FormData(), parts(photos), { uploaded });
    expect(sent.map((s) => s.url)).toEqual(["/api/uploads", "/api/uploads", "/api/onboarding/step2"]);
  });

  it("stops at a refused photo, with its message under the form's field, and never sends the save", async () => {
    answer = () => ({
      status: 400,
      json: { error: { code: "VALIDATION_ERROR", message: "Not an image", fields: { photo: "Not an image" } } },
    });
    const refused = sendWithPhotos("/api/onboarding/step2", new FormData(), parts([picked("a"), picked("b")]));
    await expect(refused).rejects.toMatchObject({ status: 400, code: "VALIDATION_ERROR", fields: { coupleProfileImage: "Not an image" } });
    expect(sent.map((s) => s.url)).toEqual(["/api/uploads"]);
  });

  it("keeps a photo not marked for upload ahead in the save itself (the profile photo of step 1)", async () => {
    const result = await sendWithPhotos("/api/onboarding/step1", new FormData(), [
      { field: "userImage", fileName: "user.jpg", photo: picked("me") },
    ]);
    expect(result).toEqual({ success: true });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.form.get("userImage")).toBeInstanceOf(File);
  });
});
