import { describe, expect, it } from "vitest";
import { passwordResetSchema, signInSchema, tokenRequestSchema, verifyEmailSchema, verifyPageQuerySchema } from "@/lib/auth/schemas";
import { TOKEN_MAX } from "@/lib/auth/rules";

const token = (length: number) => "a".repeat(length);

describe("the identity calls' schemas", () => {
  it("bound every secret token by TOKEN_MAX", () => {
    expect(verifyEmailSchema.safeParse({ token: token(TOKEN_MAX) }).success).toBe(true);
    expect(verifyEmailSchema.safeParse({ token: token(TOKEN_MAX + 1) }).success).toBe(false);
    expect(passwordResetSchema.safeParse({ token: token(TOKEN_MAX + 1), password: "secret1" }).success).toBe(false);
    expect(tokenRequestSchema.safeParse({ grant_type: "refresh_token", refresh_token: token(TOKEN_MAX + 1) }).success).toBe(false);
  });

  it("take the verification e-mail as optional, for the link with and without it", () => {
    expect(verifyEmailSchema.parse({ token: "t" })).toEqual({ token: "t" });
    expect(verifyEmailSchema.parse({ token: "t", email: "ada@example.com" })).toEqual({ token: "t", email: "ada@example.com" });
  });

  it("read the password grant with the sign-in schema: an empty password is refused", () => {
    expect(signInSchema.safeParse({ email: "ada@example.com", password: "" }).success).toBe(false);
    expect(tokenRequestSchema.parse({ grant_type: "password", email: "ada@example.com", password: "pw" })).toEqual({
      grant_type: "password",
      email: "ada@example.com",
      password: "pw",
    });
  });

  it("let /verify-email show only an address and a name from its query: a link cannot make the page say anything else", () => {
    const shown = (query: Record<string, unknown>) => verifyPageQuerySchema.parse(query);
    expect(shown({ email: "Ada@Example.com", name: " Ada " })).toEqual({ email: "ada@example.com", name: "Ada" });
    expect(shown({ email: "Your account is suspended. Call +1 555 0100 to restore it", name: "Ada" })).toEqual({ name: "Ada" });
    expect(shown({ email: `${"a".repeat(300)}@example.com` })).toEqual({});
    expect(shown({ name: "Ada\nYour account is locked", email: ["a@example.com", "b@example.com"] })).toEqual({});
    expect(shown({ name: "A".repeat(51) })).toEqual({});
    expect(shown({})).toEqual({});
  });
});
