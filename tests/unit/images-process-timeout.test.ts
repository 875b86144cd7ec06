import { describe, expect, it, vi } from "vitest";

// Real sharp, except that a pipeline given a timeout runs out of it: its encode fails as sharp's
// own timeout does, the work killed by vips.
vi.mock("sharp", async (importOriginal) => {
  const real = (await importOriginal<typeof import("sharp")>()).default;
  const timingOut = ((...args: Parameters<typeof real>) => {
    const pipeline = real(...args);
    Object.assign(pipeline, {
      timeout: () =>
        Object.assign(pipeline, {
          toBuffer: () => Promise.reject(new Error('timeout: 5% complete\nVipsImage: killed for image "temp-51"')),
        }),
    });
    return pipeline;
  }) as unknown as typeof real;
  return { default: Object.assign(timingOut, real) };
});

const { default: sharp } = await import("sharp");
const { processImage } = await import("@/lib/images/process");
const { BUSY_MESSAGE } = await import("@/lib/semaphore");

describe("processImage when the server is too busy to finish an encode in time", () => {
  it("answers 503 with the busy text and Retry-After, not that the user's file is invalid", async () => {
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#3366cc" } })
      .png()
      .toBuffer();
    const error = await processImage(png, "couple-photo").catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "SERVICE_UNAVAILABLE", status: 503, message: BUSY_MESSAGE, extra: { retryAfterSeconds: 1 } });
  });
});
