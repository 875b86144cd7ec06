import { redirect } from "next/navigation";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";

const auth = vi.fn<() => Promise<{ claims: { sub?: string } } | null>>();
const accountFlags = vi.fn<() => Promise<{ profileComplete: boolean } | null>>();
/** The account read with the flags: a complete profile comes with its couple. */
const couple = { userId: "user-1", coupleId: "couple-1" };
vi.mock("@/lib/auth/auth", () => ({ auth: () => auth() }));
vi.mock("@/lib/auth/users", () => ({
  userAccount: async () => {
    const flags = await accountFlags();
    return flags && { flags, couple: flags.profileComplete ? couple : null };
  },
}));
vi.mock("@/db/client", () => ({ getDb: async () => ({}) }));
// The request's headers, as the deployment's proxy wrote them (lib/http/client-address.ts reads the last entry).
vi.mock("next/headers", () => ({ headers: async () => new Headers({ "x-forwarded-for": "198.51.100.1, 203.0.113.7" }) }));

const { action, formArgument } = await import("@/lib/http/action");

afterEach(() => {
  auth.mockReset();
  accountFlags.mockReset();
});

const nameInput = (name: unknown) => z.object({ name: z.string().min(1, "Name is required") }).parse({ name });

describe("action(): who may call", () => {
  it("public reads no session and hands a null caller", async () => {
    const greet = action({ access: "public", input: nameInput }, async ({ caller, input }) => ({ caller, greeting: `Hi ${input.name}` }));
    await expect(greet("Ada")).resolves.toEqual({ ok: true, caller: null, greeting: "Hi Ada" });
    expect(auth).not.toHaveBeenCalled();
  });

  it("hands every action the caller's address as the deployment vouches for it, never what the client wrote first", async () => {
    const where = action({ access: "public" }, async ({ clientAddress }) => ({ clientAddress }));
    await expect(where()).resolves.toEqual({ ok: true, clientAddress: "203.0.113.7" });
  });

  it("optional hands the signed-in caller, or null", async () => {
    const who = action({ access: "optional" }, async ({ caller }) => ({ userId: caller?.userId ?? null }));
    auth.mockResolvedValue({ claims: { sub: "user-1" } });
    await expect(who()).resolves.toEqual({ ok: true, userId: "user-1" });
    auth.mockResolvedValue(null);
    await expect(who()).resolves.toEqual({ ok: true, userId: null });
  });

  it("signed-in refuses a signed-out caller with UNAUTHENTICATED before reading the input", async () => {
    const input = vi.fn(nameInput);
    const save = action({ access: "signed-in", input }, async ({ caller }) => ({ userId: caller.userId }));
    auth.mockResolvedValue(null);
    await expect(save("Ada")).resolves.toMatchObject({ ok: false, code: "UNAUTHENTICATED" });
    expect(input).not.toHaveBeenCalled();
    auth.mockResolvedValue({ claims: { sub: "user-1" } });
    await expect(save("Ada")).resolves.toEqual({ ok: true, userId: "user-1" });
  });

  it("complete-profile refuses an incomplete profile with PROFILE_INCOMPLETE", async () => {
    const post = action({ access: "complete-profile" }, async () => ({}));
    auth.mockResolvedValue({ claims: { sub: "user-1" } });
    accountFlags.mockResolvedValue({ profileComplete: false });
    await expect(post()).resolves.toMatchObject({ ok: false, code: "PROFILE_INCOMPLETE" });
    accountFlags.mockResolvedValue({ profileComplete: true });
    await expect(post()).resolves.toEqual({ ok: true });
  });

  it("complete-profile hands the handler the caller's acting couple", async () => {
    const whose = action({ access: "complete-profile" }, async ({ couple }) => ({ coupleId: couple.coupleId }));
    auth.mockResolvedValue({ claims: { sub: "user-1" } });
    accountFlags.mockResolvedValue({ profileComplete: true });
    await expect(whose()).resolves.toEqual({ ok: true, coupleId: "couple-1" });
  });
});

describe("action(): answers", () => {
  it("answers invalid input with the form's VALIDATION_ERROR and every field's message", async () => {
    const greet = action({ access: "public", input: nameInput }, async () => ({}));
    await expect(greet("")).resolves.toMatchObject({ ok: false, code: "VALIDATION_ERROR", fieldErrors: { name: "Name is required" } });
  });

  it("answers an unexpected error with the declared message, never the error", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const fail = action({ access: "public", failure: "Failed to save" }, async () => {
      throw new Error("connection refused at 10.0.0.7");
    });
    await expect(fail()).resolves.toEqual({ ok: false, code: "INTERNAL_ERROR", message: "Failed to save" });
    logged.mockRestore();
  });

  it("lets Next.js's redirect through", async () => {
    const go = action({ access: "public" }, async () => redirect("/dashboard"));
    await expect(go()).rejects.toMatchObject({ digest: expect.stringContaining("NEXT_REDIRECT") });
  });
});

describe("formArgument", () => {
  it("refuses a form action called with anything but a form as a refused form, not our failure", async () => {
    const signIn = action({ access: "public", input: (sent: FormData) => String(formArgument(sent).get("email")) }, async ({ input }) => ({
      email: input,
    }));
    const form = new FormData();
    form.set("email", "ada@example.com");
    await expect(signIn(form)).resolves.toEqual({ ok: true, email: "ada@example.com" });
    await expect(signIn("email=ada" as unknown as FormData)).resolves.toMatchObject({ ok: false, code: "VALIDATION_ERROR" });
  });
});
