import { describe, expect, it } from "vitest";
import { emailChangeEmail, emailChangeNotice, notificationEmail } from "@/lib/mail/templates";

describe("notification e-mails", () => {
  const mail = notificationEmail(
    "ana@example.com",
    {
      subject: "New reply on Two of Us",
      title: "Rui of Rui & Ana\r\nBcc: x@example.com replied to your post",
      message: "<b>hi</b>",
      href: "/forum/post/p1#reply-r1",
    },
    "secret-token",
  );

  it("carry the one-click unsubscribe link in the body and in the RFC 8058 headers", () => {
    expect(mail.text).toMatch(/Unsubscribe from these e-mails: https?:\/\/\S+\/unsubscribe\?token=secret-token/);
    expect(mail.headers!["List-Unsubscribe"]).toMatch(/^<https?:\/\/[^>]+\/api\/notifications\/unsubscribe\?token=secret-token>$/);
    expect(mail.headers!["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(mail.html).toContain("/unsubscribe?token=secret-token");
  });

  it("a service e-mail (no token: a moderators' decision) has nothing to unsubscribe from", () => {
    const service = notificationEmail(
      "ana@example.com",
      { subject: "S", title: "Your couple is suspended", message: "Why", href: "/safety" },
      null,
    );
    expect(service.text).not.toMatch(/unsubscribe/i);
    expect(service.html).not.toMatch(/unsubscribe/i);
    expect(service.headers).toBeUndefined();
    expect(service.text).toContain("/safety");
  });

  it("link to the notification's place, keep the subject one line and escape the HTML", () => {
    expect(mail.text).toContain("/forum/post/p1#reply-r1");
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.html).not.toContain("<b>hi</b>");
  });
});

describe("e-mail change", () => {
  it("sends the link to the new address only; the old one gets a notice without it", () => {
    const link = emailChangeEmail("new@example.com", "Ana", "tok");
    expect(link.to).toBe("new@example.com");
    expect(link.text).toMatch(/\/settings\/confirm-email\?token=tok/);
    const notice = emailChangeNotice("old@example.com", "Ana", "new@example.com");
    expect(notice.to).toBe("old@example.com");
    expect(notice.text).not.toContain("tok");
    expect(notice.text).toContain("new@example.com");
  });
});
