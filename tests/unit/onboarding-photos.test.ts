import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { COMPRESSION, INVALID_IMAGE_MESSAGE, INVALID_IMAGES_MESSAGE, MAX_IMAGE_BYTES, TOO_LARGE_MESSAGE } from "@/lib/images/rules";
import {
  croppedFileName,
  fitWithin,
  formatFileSize,
  imageProblem,
  isAlreadyCompact,
  jpegName,
  minCropSize,
  nextQuality,
  photoToFile,
  type PickedPhoto,
} from "@/lib/images/client/photo";
import { planGalleryAdditions } from "@/lib/couples/client/gallery";

const picked = (name: string, type: string, size = 1000) => ({ name, type, size });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe("imageProblem", () => {
  it("accepts JPEG, PNG and WebP", () => {
    for (const type of ["image/jpeg", "image/png", "image/webp"]) expect(imageProblem(picked("photo", type))).toBeNull();
  });

  it("refuses other types with the spec's message", () => {
    expect(imageProblem(picked("anim.gif", "image/gif"))).toBe(INVALID_IMAGE_MESSAGE);
    expect(imageProblem(picked("notes.pdf", "application/pdf"))).toBe(INVALID_IMAGE_MESSAGE);
    expect(imageProblem(picked("phone.heic", "image/heic"))).toBe(INVALID_IMAGE_MESSAGE);
  });

  it("judges by the extension when the system reports no type", () => {
    expect(imageProblem(picked("IMG_0001.JPG", ""))).toBeNull();
    expect(imageProblem(picked("scan.jpeg", ""))).toBeNull();
    expect(imageProblem(picked("phone.heic", ""))).toBe(INVALID_IMAGE_MESSAGE);
  });

  it("refuses files over the 10 MB of the hint", () => {
    expect(imageProblem(picked("big.jpg", "image/jpeg", MAX_IMAGE_BYTES))).toBeNull();
    expect(imageProblem(picked("big.jpg", "image/jpeg", MAX_IMAGE_BYTES + 1))).toBe(TOO_LARGE_MESSAGE);
  });
});

describe("formatFileSize", () => {
  it("shows bytes, whole kilobytes and megabytes with one decimal", () => {
    expect(formatFileSize(512)).toBe("512 B");
    expect(formatFileSize(48 * 1024 + 100)).toBe("48 KB");
    expect(formatFileSize(1.4 * 1024 * 1024)).toBe("1.4 MB");
  });
});

describe("file names", () => {
  it("gives every output a .jpg extension", () => {
    expect(jpegName("beach.png")).toBe("beach.jpg");
    expect(jpegName("a.trip.webp")).toBe("a.trip.jpg");
    expect(jpegName("no-extension")).toBe("no-extension.jpg");
  });

  it("names a crop after the original, or cropped-{timestamp}.jpg without a name", () => {
    expect(croppedFileName("us.jpeg", 1700000000000)).toBe("us.jpg");
    expect(croppedFileName("", 1700000000000)).toBe("cropped-1700000000000.jpg");
    expect(croppedFileName("  ", 42)).toBe("cropped-42.jpg");
  });
});

describe("minCropSize", () => {
  it("keeps both sides at 50 px or more for any aspect ratio", () => {
    expect(minCropSize(1)).toEqual({ minWidth: 50, minHeight: 50 });
    const landscape = minCropSize(4 / 3);
    expect(landscape.minHeight).toBe(50);
    expect(landscape.minWidth / landscape.minHeight).toBeCloseTo(4 / 3);
  });
});

describe("planGalleryAdditions", () => {
  const jpeg = (name: string) => picked(name, "image/jpeg");

  it("sends every valid file on to the crop dialog", () => {
    const files = [jpeg("a.jpg"), jpeg("b.jpg")];
    expect(planGalleryAdditions(1, files)).toEqual({ accepted: files, error: null });
  });

  it("skips invalid files with the message for several files", () => {
    const good = jpeg("a.jpg");
    expect(planGalleryAdditions(0, [good, picked("x.gif", "image/gif")])).toEqual({ accepted: [good], error: INVALID_IMAGES_MESSAGE });
  });

  it("skips files over 10 MB with the size message", () => {
    const good = jpeg("a.jpg");
    expect(planGalleryAdditions(0, [good, picked("big.jpg", "image/jpeg", MAX_IMAGE_BYTES + 1)])).toEqual({
      accepted: [good],
      error: TOO_LARGE_MESSAGE,
    });
  });

  it("fills the gallery up to exactly five", () => {
    expect(planGalleryAdditions(3, [jpeg("a.jpg"), jpeg("b.jpg")]).accepted).toHaveLength(2);
  });

  it("refuses a selection that would pass five, naming the current count", () => {
    expect(planGalleryAdditions(4, [jpeg("a.jpg"), jpeg("b.jpg")])).toEqual({
      accepted: [],
      error: "You can only upload up to 5 photos. You currently have 4.",
    });
    expect(planGalleryAdditions(5, [jpeg("a.jpg")]).error).toBe("You can only upload up to 5 photos. You currently have 5.");
  });
});

describe("compression rules", () => {
  it("shrinks the longer side to 1920 px, keeping the proportions, and never enlarges", () => {
    expect(fitWithin(4000, 3000, 1920)).toEqual({ width: 1920, height: 1440 });
    expect(fitWithin(3000, 4000, 1920)).toEqual({ width: 1440, height: 1920 });
    expect(fitWithin(800, 600, 1920)).toEqual({ width: 800, height: 600 });
  });

  it("keeps an encoding of at most 1 MB", () => {
    expect(nextQuality(COMPRESSION.initialQuality, COMPRESSION.maxBytes)).toBeNull();
  });

  it("steps the quality down from 0.85 while the result is over 1 MB, then stops", () => {
    const steps: number[] = [COMPRESSION.initialQuality];
    for (let next = nextQuality(0.85, 2e6); next !== null; next = nextQuality(next, 2e6)) steps.push(next);
    expect(steps).toEqual([0.85, 0.75, 0.65, 0.55, 0.45]);
  });

  it("leaves a JPEG alone when it is already within both limits", () => {
    expect(isAlreadyCompact({ type: "image/jpeg", size: 80_000 }, 400, 400)).toBe(true);
    expect(isAlreadyCompact({ type: "image/png", size: 80_000 }, 400, 400)).toBe(false);
    expect(isAlreadyCompact({ type: "image/jpeg", size: 2e6 }, 400, 400)).toBe(false);
    expect(isAlreadyCompact({ type: "image/jpeg", size: 80_000 }, 4000, 3000)).toBe(false);
  });
});

describe("photoToFile", () => {
  it("turns the kept data URL back into the same JPEG bytes under the photo's name", async () => {
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0xff, 0xd9]);
    const photo: PickedPhoto = {
      dataUrl: `data:image/jpeg;base64,${Buffer.from(bytes).toString("base64")}`,
      name: "me.jpg",
      size: 10,
      width: 400,
      height: 400,
    };
    const file = photoToFile(photo);
    expect(file.name).toBe("me.jpg");
    expect(file.type).toBe("image/jpeg");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
  });
});

describe("compressImage", () => {
  const original = new File([new Uint8Array(10)], "holiday.png", { type: "image/png" });

  /** A stand-in for the worker: answers each posted file with the given reply, or fails. */
  function fakeWorker(answer: (worker: { onmessage: ((event: { data: unknown }) => void) | null; onerror: (() => void) | null }) => void) {
    const terminated = vi.fn();
    class FakeWorker {
      onmessage: ((event: { data: unknown }) => void) | null = null;
      onerror: (() => void) | null = null;
      onmessageerror: (() => void) | null = null;
      postMessage() {
        queueMicrotask(() => answer(this));
      }
      terminate = terminated;
    }
    vi.stubGlobal("Worker", FakeWorker);
    return terminated;
  }

  it("returns the original where there are no workers", async () => {
    const { compressImage } = await import("@/lib/images/client/compress");
    expect(await compressImage(original)).toBe(original);
  });

  it("returns the worker's JPEG renamed .jpg, and ends the worker", async () => {
    const terminated = fakeWorker((worker) =>
      worker.onmessage?.({ data: { kind: "compressed", blob: new Blob([new Uint8Array(3)], { type: "image/jpeg" }) } }),
    );
    const { compressImage } = await import("@/lib/images/client/compress");
    const result = await compressImage(original);
    expect(result.name).toBe("holiday.jpg");
    expect(result.type).toBe("image/jpeg");
    expect(result.size).toBe(3);
    expect(terminated).toHaveBeenCalled();
  });

  it("returns the original when the worker fails or leaves the file as it is", async () => {
    fakeWorker((worker) => worker.onmessage?.({ data: { kind: "failed" } }));
    const { compressImage } = await import("@/lib/images/client/compress");
    expect(await compressImage(original)).toBe(original);
    fakeWorker((worker) => worker.onmessage?.({ data: { kind: "unchanged" } }));
    expect(await compressImage(original)).toBe(original);
    fakeWorker((worker) => worker.onerror?.());
    expect(await compressImage(original)).toBe(original);
  });

  it("returns the original when the browser refuses to start the worker", async () => {
    vi.stubGlobal(
      "Worker",
      class {
        constructor() {
          throw new Error("Refused by the Content-Security-Policy");
        }
      },
    );
    const { compressImage } = await import("@/lib/images/client/compress");
    expect(await compressImage(original)).toBe(original);
  });
});

describe("uploadForm", () => {
  type Reply = { status: number; body: string } | "network-error" | "hang";
  let replies: Reply[];
  let requests: FakeRequest[];

  class FakeRequest {
    method = "";
    url = "";
    headers: Record<string, string> = {};
    body: unknown;
    status = 0;
    responseText = "";
    upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    getResponseHeader(_name: string): string | null {
      return null;
    }
    send(body: unknown) {
      this.body = body;
      requests.push(this);
      const reply = replies.shift() ?? "hang";
      if (reply === "hang") return;
      queueMicrotask(() => {
        if (reply === "network-error") return this.onerror?.();
        this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
        this.status = reply.status;
        this.responseText = reply.body;
        this.onload?.();
      });
    }
    abort() {
      this.onabort?.();
    }
  }

  const json = (status: number, value: unknown): Reply => ({ status, body: JSON.stringify(value) });
  const csrfRefused = json(403, { error: { code: "CSRF_VALIDATION_FAILED", message: "Invalid CSRF token" } });

  function serveTokens(...answers: (object | Error)[]) {
    const fetchToken = vi.fn(async (_url: string) => {
      const answer = answers.shift() ?? { csrfToken: null, token: null };
      if (answer instanceof Error) throw answer;
      return Response.json(answer);
    });
    vi.stubGlobal("fetch", fetchToken);
    return fetchToken;
  }

  beforeEach(() => {
    replies = [];
    requests = [];
    vi.stubGlobal("XMLHttpRequest", FakeRequest);
  });

  async function uploadForm() {
    return (await import("@/lib/transport/upload")).uploadForm;
  }

  it("POSTs the form with the token from /api/csrf-token and reports progress", async () => {
    const fetchToken = serveTokens({ csrfToken: "token-1", token: "token-1" });
    replies.push(json(200, { success: true }));
    const form = new FormData();
    const progress: number[] = [];
    const result = await (await uploadForm())("/api/onboarding/step1", form, { onProgress: (fraction) => progress.push(fraction) });
    expect(result).toEqual({ success: true });
    expect(fetchToken.mock.calls[0]?.[0]).toBe("/api/csrf-token");
    expect(requests[0]).toMatchObject({ method: "POST", url: "/api/onboarding/step1", body: form });
    expect(requests[0]?.headers["X-CSRF-Token"]).toBe("token-1");
    expect(progress).toEqual([0.5, 1]);
  });

  // The token's rules are tested once, in tests/unit/http-client.test.ts; this is the XMLHttpRequest side of them.
  it("fetches a new token and sends the form again when the token is refused", async () => {
    serveTokens({ csrfToken: "stale" }, { csrfToken: "fresh" });
    replies.push(csrfRefused, json(201, { ok: true }));
    expect(await (await uploadForm())("/a", new FormData())).toEqual({ ok: true });
    expect(requests.map((request) => request.headers["X-CSRF-Token"])).toEqual(["stale", "fresh"]);
  });

  it("throws JSON error answers as the transport's ApiError, for the caller to show", async () => {
    serveTokens({ csrfToken: "t" });
    const answer = { error: { code: "VALIDATION_ERROR", message: "Please upload your profile photo", fields: { userImage: "Required" } } };
    replies.push(json(400, answer));
    const failure = (await uploadForm())("/a", new FormData());
    await expect(failure).rejects.toBeInstanceOf((await import("@/lib/transport/client")).ApiError);
    await expect(failure).rejects.toMatchObject({
      status: 400,
      code: "VALIDATION_ERROR",
      message: "Please upload your profile photo",
      fields: { userImage: "Required" },
    });
    expect(requests).toHaveLength(1);
  });

  it("throws 'Upload failed with status N' for a failure without JSON", async () => {
    serveTokens({ csrfToken: "t" });
    replies.push({ status: 502, body: "<html>Bad gateway</html>" });
    await expect((await uploadForm())("/a", new FormData())).rejects.toThrow("Upload failed with status 502");
    // A POST that may have reached the server is not sent again.
    expect(requests).toHaveLength(1);
  });

  it("throws 'Upload failed - network error' when the token or the upload cannot be requested", async () => {
    serveTokens(new TypeError("Failed to fetch"), { csrfToken: "t" });
    const upload = await uploadForm();
    await expect(upload("/a", new FormData())).rejects.toThrow("Upload failed - network error");
    expect(requests).toHaveLength(0);
    replies.push("network-error");
    await expect(upload("/a", new FormData())).rejects.toThrow("Upload failed - network error");
  });

  it("throws 'Upload cancelled' when the signal aborts, before or during the upload", async () => {
    serveTokens({ csrfToken: "t" });
    const upload = await uploadForm();
    const during = new AbortController();
    replies.push("hang");
    const pending = upload("/a", new FormData(), { signal: during.signal });
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    during.abort();
    await expect(pending).rejects.toThrow("Upload cancelled");
    await expect(upload("/a", new FormData(), { signal: AbortSignal.abort() })).rejects.toThrow("Upload cancelled");
    expect(requests).toHaveLength(1);
  });
});
