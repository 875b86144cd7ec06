import { describe, expect, it } from "vitest";
import { invitationEmail, verificationEmail } from "@/lib/mail/templates";

const invitation = { partnerFirstName: "Thaddeus", inviterFirstName: "Marisol", coupleName: "Marisol & Thaddeus", validDays: 7 };

describe("e-mail subjects", () => {
  it("are one line: line breaks and other control characters in a typed name become a space", () => {
    const mail = invitationEmail(
      "thaddeus@example.com",
      { ...invitation, inviterFirstName: "Marisol\r\nBcc: everyone@example.com", coupleName: "Us\u0000\tTwo\u2028" },
      "token",
    );
    expect(mail.subject).toBe("Marisol Bcc: everyone@example.com invited you to join Us Two");
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(verificationEmail("a@example.com", "Ada", "token").subject).toBe("Verify your email address");
  });

  it("leave an ordinary subject as it is", () => {
    expect(invitationEmail("thaddeus@example.com", invitation, "token").subject).toBe("Marisol invited you to join Marisol & Thaddeus");
  });
});

describe("the invitation e-mail", () => {
  it("carries its own link, which works once", () => {
    const mail = invitationEmail("thaddeus@example.com", invitation, "the-emailed-secret");
    expect(mail.text).toContain("/register?invite=the-emailed-secret");
    expect(mail.text).toContain("valid for 7 days");
  });
});
