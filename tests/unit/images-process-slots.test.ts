import { describe, expect, it, vi } from "vitest";

/** Pipelines encoding at this instant, and the most seen at once. */
const encoding = vi.hoisted(() => ({ now: 0, most: 0 }));

// Real sharp, its encodes counted while they run (each held a little, as a large photo's decode is).
vi.mock("sharp", async (importOriginal) => {
  const real = (await importOriginal<typeof import("sharp")>()).default;
  const counted = ((...args: Parameters<typeof real>) => {
    const pipeline = real(...args);
    const toBuffer = pipeline.toBuffer.bind(pipeline) as (...a: unknown[]) => Promise<unknown>;
    Object.assign(pipeline, {
      toBuffer: async (...a: unknown[]) => {
        encoding.most = Math.max(encoding.most, ++encoding.now);
        try {
          await new Promise((resolve) => setTimeout(resolve, 40));
          return await toBuffer(...a);
        } finally {
          encoding.now--;
        }
      },
    });
    return pipeline;
  }) as unknown as typeof real;
  return { default: Object.assign(counted, real) };
});

const { default: sharp } = await import("sharp");
const { processImage } = await import("@/lib/images/process");
const { IMAGE_SLOTS } = await import("@/lib/thread-pool");

describe("processImage under a burst of uploads", () => {
  it("decodes at most IMAGE_SLOTS images at once, the others waiting their turn", async () => {
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#3366cc" } })
      .png()
      .toBuffer();
    const burst = Array.from({ length: IMAGE_SLOTS * 3 }, () => processImage(png, "couple-photo"));
    const done = await Promise.all(burst);
    expect(done.every((image) => image.width === 600 && image.height === 450)).toBe(true);
    expect(encoding.most).toBeGreaterThan(0);
    expect(encoding.most).toBeLessThanOrEqual(IMAGE_SLOTS);
  });
});
