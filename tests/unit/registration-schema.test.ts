import { describe, expect, it } from "vitest";
import { INVITE_CODE_ELSEWHERE, registrationFormSchema, registrationPayloadSchema } from "@/lib/registration/schemas";

const form = {
  email: "marisol@example.com",
  password: "Str0ng!Passw0rd",
  confirmPassword: "Str0ng!Passw0rd",
  firstName: "Marisol",
  lastName: "Okafor",
  dateOfBirth: "1992-03-04",
};

describe("registrationFormSchema", () => {
  it("accepts matching passwords", () => {
    expect(registrationFormSchema.safeParse(form).success).toBe(true);
  });

  it("puts 'Passwords do not match' on confirmPassword when the confirmation differs", () => {
    const result = registrationFormSchema.safeParse({ ...form, confirmPassword: "Str0ng!Passw0rD" });
    expect(result.success).toBe(false);
    expect(result.error!.issues).toEqual([expect.objectContaining({ path: ["confirmPassword"], message: "Passwords do not match" })]);
  });

  it("does not trim either password before comparing", () => {
    const result = registrationFormSchema.safeParse({ ...form, confirmPassword: `${form.password} ` });
    expect(result.error!.issues.map((i) => i.message)).toEqual(["Passwords do not match"]);
  });

  it("reports every invalid field with the spec's message", () => {
    const result = registrationFormSchema.safeParse({
      ...form,
      email: "nope",
      firstName: "",
      lastName: "x".repeat(51),
      dateOfBirth: "2001-02-30",
    });
    // The first message of each field is the one a form shows.
    const byField: Record<string, string> = {};
    for (const issue of result.error!.issues) byField[issue.path.join(".")] ??= issue.message;
    expect(byField).toMatchObject({
      email: "Please enter a valid email address",
      firstName: "First name is required",
      lastName: "Last name must be no more than 50 characters",
      dateOfBirth: "Please enter a valid date",
    });
  });
});

describe("the date of birth", () => {
  const dateIssues = (dateOfBirth: unknown) =>
    registrationFormSchema.safeParse({ ...form, dateOfBirth }).error?.issues.filter((issue) => issue.path[0] === "dateOfBirth") ?? [];

  it("forgives white space around a date, and says so of a missing one", () => {
    expect(dateIssues(" 1992-03-04 ")).toEqual([]);
    // The first message is the one the form shows.
    expect(dateIssues("   ")[0]?.message).toBe("Please enter your date of birth");
  });

  it("is measured before any other work: a long value is one 'valid date' issue, however it is padded", () => {
    for (const long of [" ".repeat(15_000) + "1992-03-04", "1992-03-04x", "x".repeat(21)])
      expect(dateIssues(long).map((issue) => issue.message)).toEqual(["Please enter a valid date"]);
  });
});

describe("registrationPayloadSchema", () => {
  it("normalises the e-mail and names", () => {
    const { confirmPassword: _, ...payload } = form;
    expect(registrationPayloadSchema.parse({ ...payload, email: " Marisol@Example.com", firstName: " Marisol " })).toMatchObject({
      email: "marisol@example.com",
      firstName: "Marisol",
    });
  });

  it("refuses an invite code, which the register call does not take (spec section 7), rather than drop it", () => {
    const { confirmPassword: _, ...payload } = form;
    const result = registrationPayloadSchema.safeParse({ ...payload, inviteCode: "abc" });
    expect(result.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([["inviteCode", INVITE_CODE_ELSEWHERE]]);
  });
});
