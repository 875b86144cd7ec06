import { describe, expect, it } from "vitest";
import { latestAdultBirthDate } from "@/lib/auth/rules";
import { completeRegistrationSchema, inviteFormSchema, invitePartnerSchema, joinFormSchema } from "@/lib/invitations/schemas";
import { expiryFrom, invitationLink, inviterName } from "@/lib/invitations/rules";
import { registrationPayloadSchema } from "@/lib/registration/schemas";

/** The first message per field, as the forms and the API show them. */
function messagesOf(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const messages: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) messages[issue.path.join(".")] ??= issue.message;
  return messages;
}

describe("inviterName", () => {
  it("prefers inviter_first_name", () => {
    expect(inviterName({ inviter_first_name: "Marisol", partner1_first_name: "X", inviter_name: "Y", couple_name: "Z & W" })).toBe(
      "Marisol",
    );
  });
  it("falls back to partner1_first_name, then inviter_name", () => {
    expect(inviterName({ partner1_first_name: "Thaddeus", inviter_name: "Thaddeus Grant", couple_name: "A & B" })).toBe("Thaddeus");
    expect(inviterName({ inviter_first_name: "  ", inviter_name: "Thaddeus Grant", couple_name: "A & B" })).toBe("Thaddeus Grant");
  });
  it("takes the first half of the couple name split on ' & '", () => {
    expect(inviterName({ couple_name: "Marisol & Thaddeus" })).toBe("Marisol");
    expect(inviterName({ inviter_first_name: null, couple_name: "The Wanderers" })).toBe("The Wanderers");
  });
  it("says 'Your Partner' when nothing names the inviter", () => {
    expect(inviterName({})).toBe("Your Partner");
    expect(inviterName({ inviter_first_name: "", couple_name: " & Thaddeus" })).toBe("Your Partner");
  });
});

describe("invitePartnerSchema", () => {
  const valid = { partner_first_name: " Thaddeus ", partner_last_name: "Grant", partner_email: " Thaddeus@Example.COM " };

  it("trims the names and normalises the e-mail", () => {
    expect(invitePartnerSchema.parse(valid)).toEqual({
      partner_first_name: "Thaddeus",
      partner_last_name: "Grant",
      partner_email: "thaddeus@example.com",
    });
  });

  it("gives the spec's message for each missing or bad field", () => {
    const result = invitePartnerSchema.safeParse({ partner_first_name: "  ", partner_last_name: "", partner_email: "thaddeus@" });
    expect(messagesOf(result)).toEqual({
      partner_first_name: "Please enter your partner's first name",
      partner_last_name: "Please enter your partner's last name",
      partner_email: "Please enter a valid email address",
    });
    expect(messagesOf(invitePartnerSchema.safeParse({}))).toMatchObject({ partner_first_name: "Please enter your partner's first name" });
  });

  it("caps names at 50 characters", () => {
    const result = invitePartnerSchema.safeParse({ ...valid, partner_first_name: "x".repeat(51), partner_last_name: "y".repeat(50) });
    expect(messagesOf(result)).toEqual({ partner_first_name: "First name must be no more than 50 characters" });
  });

  it("refuses the inviter's own address in the form, whatever its case", () => {
    const schema = inviteFormSchema("marisol@example.com");
    expect(messagesOf(schema.safeParse({ ...valid, partner_email: "MARISOL@example.com " }))).toEqual({
      partner_email: "You cannot invite yourself. Please enter your partner's email.",
    });
    expect(schema.safeParse(valid).success).toBe(true);
  });
});

describe("names refuse control characters (they end up in e-mail subjects)", () => {
  const typed = ["Thaddeus\r\nBcc: x@example.com", "Thaddeus\nGrant", "Th\teo", "Thaddeus\u0000", "Thaddeus\u2028Grant", "Th\u007feo"];

  it.each(typed)("the invite form refuses %j", (name) => {
    const result = invitePartnerSchema.safeParse({
      partner_first_name: name,
      partner_last_name: name,
      partner_email: "thaddeus@example.com",
    });
    expect(messagesOf(result)).toEqual({
      partner_first_name: "First name contains characters that are not allowed",
      partner_last_name: "Last name contains characters that are not allowed",
    });
  });

  it.each(typed)("partner set-up and registration refuse %j", (name) => {
    const base = { firstName: name, lastName: "Grant", dateOfBirth: "1990-01-01" };
    expect(messagesOf(completeRegistrationSchema.safeParse(base))).toEqual({
      firstName: "First name contains characters that are not allowed",
    });
    const registration = registrationPayloadSchema.safeParse({ ...base, email: "thaddeus@example.com", password: "Sunset#Walk42" });
    expect(messagesOf(registration)).toEqual({ firstName: "First name contains characters that are not allowed" });
  });

  it("keeps accents, apostrophes, hyphens and inner spaces, and trims the ends", () => {
    expect(
      invitePartnerSchema.parse({
        partner_first_name: " Zoë-Anne\n",
        partner_last_name: "O'Brien da Silva",
        partner_email: "z@example.com",
      }),
    ).toMatchObject({
      partner_first_name: "Zoë-Anne",
      partner_last_name: "O'Brien da Silva",
    });
  });
});

describe("joinFormSchema", () => {
  it("asks for a strong password, a matching confirmation and an adult birth date", () => {
    const result = joinFormSchema.safeParse({
      password: "weakpass",
      confirmPassword: "other",
      dateOfBirth: latestAdultBirthDate().replace(/^\d{4}/, (y) => String(Number(y) + 1)),
    });
    expect(messagesOf(result)).toMatchObject({
      password: "Password must contain at least one uppercase letter",
      dateOfBirth: "You must be at least 18 years old",
    });
    const mismatch = joinFormSchema.safeParse({ password: "Sunset#Walk42", confirmPassword: "Sunset#Walk43", dateOfBirth: "1990-01-01" });
    expect(messagesOf(mismatch)).toEqual({ confirmPassword: "Passwords do not match" });
  });
});

describe("completeRegistrationSchema", () => {
  it("treats an empty occupation as not given and bounds a given one", () => {
    const base = { firstName: "Thaddeus", lastName: "Grant", dateOfBirth: "1990-01-01" };
    expect(completeRegistrationSchema.parse({ ...base, occupation: "  " }).occupation).toBeUndefined();
    expect(messagesOf(completeRegistrationSchema.safeParse({ ...base, occupation: "x".repeat(101) }))).toEqual({
      occupation: "Occupation must be no more than 100 characters",
    });
    expect(messagesOf(completeRegistrationSchema.safeParse({ ...base, dateOfBirth: "" }))).toEqual({
      dateOfBirth: "Please enter your date of birth",
    });
  });
});

describe("links and expiry", () => {
  it("builds the shareable link on the given origin", () => {
    expect(invitationLink("https://two.example", "a-b_c")).toBe("https://two.example/register?invite=a-b_c");
  });
  it("expires exactly 7 days later", () => {
    expect(expiryFrom(new Date("2026-01-01T10:00:00Z")).toISOString()).toBe("2026-01-08T10:00:00.000Z");
  });
});
