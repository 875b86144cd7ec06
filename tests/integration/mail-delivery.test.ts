import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailOutbox } from "@/db/schema";
import { deliverEmails, enqueueEmail } from "@/lib/mail/outbox";
import { verificationEmail } from "@/lib/mail/templates";

describe("e-mail delivery through a provider", () => {
  it("marks a delivered e-mail and does not send it twice", async () => {
    const db = await getDb();
    const id = await enqueueEmail(db, verificationEmail("sent@example.com", "Sam", "token-1"));
    const sent: string[] = [];
    const provider = async (message: { to: string }) => {
      sent.push(message.to);
    };
    await deliverEmails(db, [id], provider);
    await deliverEmails(db, [id], provider);
    expect(sent).toEqual(["sent@example.com"]);
    const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
    expect(row?.deliveredAt).toBeInstanceOf(Date);
    expect(row?.lastError).toBeNull();
    // The live link does not stay behind in the database once the provider has it.
    expect([row?.text, row?.html]).toEqual(["", ""]);
  });

  it("keeps a failed e-mail pending with its error, without throwing", async () => {
    const db = await getDb();
    const id = await enqueueEmail(db, verificationEmail("bounce@example.com", "Sam", "token-2"));
    await expect(
      deliverEmails(db, [id], async () => {
        throw new Error("provider down");
      }),
    ).resolves.toBeUndefined();
    const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
    expect(row?.deliveredAt).toBeNull();
    expect(row?.lastError).toContain("provider down");
  });

  it("writes the link as an absolute URL in the plain-text part and escapes the HTML", async () => {
    const message = verificationEmail("x@example.com", "<b>Sam</b>", "abc");
    expect(message.text).toContain("http://localhost:3000/verify-email?token=abc&email=x%40example.com");
    expect(message.html).toContain("&lt;b&gt;Sam&lt;/b&gt;");
    expect(message.html).not.toContain("<b>Sam</b>");
  });
});
