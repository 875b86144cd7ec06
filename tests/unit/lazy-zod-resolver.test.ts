import { zodResolver } from "@hookform/resolvers/zod";
import { describe, expect, it, vi } from "vitest";
import { lazyZodResolver } from "@/components/forms/useZodForm";
import { registrationFormSchema } from "@/lib/registration/schemas";

const options = { fields: {}, shouldUseNativeValidation: false } as const;
const form = { email: "nope", password: "short", confirmPassword: "other", firstName: "", lastName: "Hart", dateOfBirth: "" };

describe("lazyZodResolver", () => {
  it("answers exactly what the eager zod resolver answers, loading the schema once", async () => {
    const load = vi.fn(() => Promise.resolve(registrationFormSchema));
    const lazy = lazyZodResolver(load);
    const eager = zodResolver(registrationFormSchema);
    expect(load).not.toHaveBeenCalled();
    const [got, want] = await Promise.all([lazy(form, undefined, options), eager(form, undefined, options)]);
    expect(got).toEqual(want);
    expect(Object.keys(got.errors)).toEqual(expect.arrayContaining(["email", "password", "firstName", "dateOfBirth"]));
    const valid = {
      email: "a@b.example",
      password: "Sunset#Walk42",
      confirmPassword: "Sunset#Walk42",
      firstName: "Robin",
      lastName: "Hart",
      dateOfBirth: "1991-06-15",
    };
    expect(await lazy(valid, undefined, options)).toEqual(await eager(valid, undefined, options));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("tries the load again after it failed (a chunk that did not arrive)", async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error("ChunkLoadError")).mockResolvedValue(registrationFormSchema);
    const lazy = lazyZodResolver(load);
    await expect(lazy(form, undefined, options)).rejects.toThrow("ChunkLoadError");
    expect((await lazy(form, undefined, options)).errors).toHaveProperty("email");
    expect(load).toHaveBeenCalledTimes(2);
  });
});
