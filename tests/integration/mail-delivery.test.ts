import { describe, expect, it } from "vitest";
import { getDb, type Db } from "@/db/client";
import { couples, emailOutbox, notificationPreferences, users } from "@/db/schema";
import { and, eq, inArray } from "drizzle-orm";
import { confirmEmailChange, requestEmailChange } from "@/lib/auth/account-security";
import {
  claimEmailRetries,
  deliverEmails,
  dropOldMail,
  EMAIL_ATTEMPTS,
  EMAIL_KEPT_DAYS,
  EMAIL_BUSY_WAIT_MS,
  EMAIL_SEND_GAP_MS,
  enqueueEmail,
  giveUpMail,
  isBusyAnswer,
  ProviderBusy,
  QUOTE_GONE,
  UNWANTED,
  WITHHELD,
} from "@/lib/mail/outbox";
import { createNotification, markRead as markNotificationsRead } from "@/lib/notifications/service";
import { emailUnwanted } from "@/lib/notifications/wanted";
import { enqueueUnreadMessageEmails } from "@/lib/messages/unread-email";
import { verificationEmail } from "@/lib/mail/templates";
import { runDueWork } from "@/lib/scheduled/service";
import { SAFETY_REACTIONS } from "@/lib/registry/safety";
import { sanctionCouple } from "@/lib/safety/sanctions";
import { PASSWORD } from "../support/api";
import { linkInLatestMail } from "../support/flows";
import type { TestCouple } from "../support/forum";
import { block, connected, messagingCouple, talk } from "../support/messages";

/** Three e-mails queued to addresses of their own (`prefix-1@example.com`...), their ids in order. */
async function queueThree(prefix: string): Promise<string[]> {
  const db = await getDb();
  const ids = [];
  for (const n of [1, 2, 3])
    ids.push(await enqueueEmail(db, { ...verificationEmail(`${prefix}-${n}@example.com`, "Sam", `${prefix}-${n}`), recipientId: null }));
  return ids;
}

/** An e-mail to couple `to`'s partner A naming `about`: a notice's (`notice`) or, without one, a transactional e-mail. */
const queueFor = (
  db: Db,
  to: TestCouple,
  about: string[],
  subject: string,
  notice?: { type: "reply" | "message"; conversationId: string | null },
) =>
  enqueueEmail(db, {
    to: `${subject}@example.com`,
    subject,
    text: `${subject}: their words`,
    html: `<p>${subject}: their words</p>`,
    about,
    ...(notice ? { recipientId: to.a.userId, notice } : { recipientId: to.a.userId }),
  });
const reply = { type: "reply", conversationId: null } as const;

describe("e-mail delivery through a provider", () => {
  it("marks a delivered e-mail and does not send it twice", async () => {
    const db = await getDb();
    const id = await enqueueEmail(db, { ...verificationEmail("sent@example.com", "Sam", "token-1"), recipientId: null });
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

  it("sends nothing of an e-mail given up before its delivery came (its words gone)", async () => {
    const db = await getDb();
    const id = await enqueueEmail(db, { ...verificationEmail("given-up@example.com", "Sam", "token-up"), recipientId: null });
    await giveUpMail(db, eq(emailOutbox.id, id), QUOTE_GONE);
    const sent: string[] = [];
    await deliverEmails(db, [id], async (message) => void sent.push(message.to));
    expect(sent).toEqual([]);
    const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
    expect(row).toMatchObject({ deliveredAt: null, retryAt: null, lastError: QUOTE_GONE, text: "", html: "" });
  });

  it("hands the provider each e-mail's id as its idempotency key, the sends spaced by the provider's rate", async () => {
    const db = await getDb();
    const ids = await queueThree("paced");
    const calls: { key: string; at: number }[] = [];
    await deliverEmails(db, ids, async (_message, key) => {
      calls.push({ key, at: Date.now() });
    });
    expect(calls.map((call) => call.key).sort()).toEqual([...ids].sort());
    // A timer may fire a millisecond early: the gap is what was asked, give or take that.
    for (let i = 1; i < calls.length; i++) expect(calls[i]!.at - calls[i - 1]!.at).toBeGreaterThanOrEqual(EMAIL_SEND_GAP_MS - 5);
  });

  it("stops when the provider is busy: that e-mail and the rest wait a minute for the due work, no try counted", async () => {
    const db = await getDb();
    const ids = await queueThree("busy");
    const clock = Date.now();
    let calls = 0;
    const busyAfterOne = async () => {
      if (++calls > 1) throw new ProviderBusy("Too many requests");
    };
    await deliverEmails(db, ids, busyAfterOne, { now: () => new Date(clock) });
    expect(calls).toBe(2);
    const rows = await db.select().from(emailOutbox).where(inArray(emailOutbox.id, ids));
    const waiting = rows.filter((row) => row.deliveredAt === null);
    expect(waiting).toHaveLength(2);
    for (const row of waiting) expect(row).toMatchObject({ attempts: 0, lastError: null, retryAt: new Date(clock + EMAIL_BUSY_WAIT_MS) });
    expect(await claimEmailRetries(db, new Date(clock + EMAIL_BUSY_WAIT_MS))).toEqual(expect.arrayContaining(waiting.map((row) => row.id)));
  });

  it("past its time budget, leaves the rest due at once for the due work, no try counted", async () => {
    const db = await getDb();
    const ids = await queueThree("budget");
    const clock = Date.now();
    let calls = 0;
    await deliverEmails(db, ids, async () => void calls++, { now: () => new Date(clock), budgetMs: EMAIL_SEND_GAP_MS * 1.5 });
    // The second send starts within the budget (one gap in), the third would start past it (two).
    expect(calls).toBe(2);
    const [left] = (await db.select().from(emailOutbox).where(inArray(emailOutbox.id, ids))).filter((row) => row.deliveredAt === null);
    expect(left).toMatchObject({ attempts: 0, lastError: null, retryAt: new Date(clock) });
    expect(await claimEmailRetries(db, new Date(clock))).toContain(left!.id);
  });

  it("reads Resend's rate limit and an e-mail's send still running as 'later', its quotas and the rest as failures", () => {
    expect(isBusyAnswer({ name: "rate_limit_exceeded", statusCode: 429 })).toBe(true);
    expect(isBusyAnswer({ name: "application_error", statusCode: 429 })).toBe(true);
    expect(isBusyAnswer({ name: "concurrent_idempotent_requests", statusCode: 409 })).toBe(true);
    expect(isBusyAnswer({ name: "daily_quota_exceeded", statusCode: 429 })).toBe(false);
    expect(isBusyAnswer({ name: "validation_error", statusCode: 422 })).toBe(false);
  });

  it("keeps a failed e-mail pending with its error, without throwing", async () => {
    const db = await getDb();
    const id = await enqueueEmail(db, { ...verificationEmail("bounce@example.com", "Sam", "token-2"), recipientId: null });
    await expect(
      deliverEmails(db, [id], async () => {
        throw new Error("provider down");
      }),
    ).resolves.toBeUndefined();
    const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
    expect(row?.deliveredAt).toBeNull();
    expect(row?.lastError).toContain("provider down");
  });

  it("tries a failed e-mail again from the due work after a growing wait, then gives it up with its error", async () => {
    const db = await getDb();
    const id = await enqueueEmail(db, { ...verificationEmail("later@example.com", "Sam", "token-3"), recipientId: null });
    const down = async () => {
      throw new Error("429 too many requests");
    };
    let clock = Date.now();
    const at = () => new Date(clock);
    await deliverEmails(db, [id], down, { now: at });
    const waits: number[] = [];
    for (;;) {
      const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
      if (row!.retryAt === null) break;
      const wait = row!.retryAt.getTime() - clock;
      waits.push(Math.round(wait / 60_000));
      // Not before its time; then the due work's, once.
      expect(await claimEmailRetries(db, new Date(clock + wait - 1_000))).not.toContain(id);
      clock += wait;
      expect(await claimEmailRetries(db, at())).toContain(id);
      expect(await claimEmailRetries(db, at())).not.toContain(id);
      await deliverEmails(db, [id], down, { now: at });
    }
    expect(waits).toEqual([1, 5, 15, 60, 240]);
    const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
    expect(row).toMatchObject({ deliveredAt: null, attempts: EMAIL_ATTEMPTS, lastError: expect.stringContaining("429") });
  });

  it("delivers from the due work one never tried (an instance stopped after its commit), after the first try's lease", async () => {
    const db = await getDb();
    const id = await enqueueEmail(db, { ...verificationEmail("stopped@example.com", "Sam", "token-4"), recipientId: null });
    expect(await claimEmailRetries(db, new Date(Date.now() + 9 * 60_000))).not.toContain(id);
    const claimed = await claimEmailRetries(db, new Date(Date.now() + 11 * 60_000));
    expect(claimed).toContain(id);
    const sent: string[] = [];
    await deliverEmails(db, claimed, async (message) => {
      sent.push(message.to);
    });
    expect(sent).toContain("stopped@example.com");
    const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
    expect(row).toMatchObject({ retryAt: null, attempts: 0 });
    expect(row!.deliveredAt).toBeInstanceOf(Date);
  });

  it("gives up an e-mail older than a day instead of sending it late", async () => {
    const db = await getDb();
    const id = await enqueueEmail(db, { ...verificationEmail("stale@example.com", "Sam", "token-5"), recipientId: null });
    await db
      .update(emailOutbox)
      .set({ createdAt: new Date(Date.now() - 25 * 3_600_000), retryAt: new Date() })
      .where(eq(emailOutbox.id, id));
    expect(await claimEmailRetries(db, new Date())).not.toContain(id);
    const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
    expect(row).toMatchObject({ retryAt: null, deliveredAt: null });
  });

  it("drops e-mails older than 30 days whatever became of them, the oldest first, a bounded batch a run; the due work does it", async () => {
    const db = await getDb();
    const [delivered, givenUp, waiting] = await queueThree("old");
    const recent = await enqueueEmail(db, { ...verificationEmail("recent@example.com", "Sam", "recent"), recipientId: null });
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    await db
      .update(emailOutbox)
      .set({ createdAt: daysAgo(40), deliveredAt: daysAgo(40), retryAt: null })
      .where(eq(emailOutbox.id, delivered!));
    await db
      .update(emailOutbox)
      .set({ createdAt: daysAgo(35), retryAt: null, attempts: EMAIL_ATTEMPTS })
      .where(eq(emailOutbox.id, givenUp!));
    await db
      .update(emailOutbox)
      .set({ createdAt: daysAgo(EMAIL_KEPT_DAYS + 1) })
      .where(eq(emailOutbox.id, waiting!));
    await db
      .update(emailOutbox)
      .set({ createdAt: daysAgo(EMAIL_KEPT_DAYS - 1) })
      .where(eq(emailOutbox.id, recent));
    const left = async () =>
      (
        await db
          .select({ id: emailOutbox.id })
          .from(emailOutbox)
          .where(inArray(emailOutbox.id, [delivered!, givenUp!, waiting!, recent]))
      )
        .map((row) => row.id)
        .sort();

    expect(await dropOldMail(db, new Date(), 2)).toBe(2);
    expect(await left()).toEqual([waiting!, recent].sort());
    expect((await runDueWork(db)).mailDropped).toBe(1);
    expect(await left()).toEqual([recent]);
  });

  it("writes the link as an absolute URL in the plain-text part and escapes the HTML", async () => {
    const message = verificationEmail("x@example.com", "<b>Sam</b>", "abc");
    expect(message.text).toContain("http://localhost:3000/verify-email?token=abc&email=x%40example.com");
    expect(message.html).toContain("&lt;b&gt;Sam&lt;/b&gt;");
    expect(message.html).not.toContain("<b>Sam</b>");
  });
});

describe("an e-mail about another couple, waiting to be sent", () => {
  it("is withheld, its words dropped, once a block or a suspension stands between the couples; one couple's own still goes", async () => {
    const db = await getDb();
    const [ana, rui, eva] = [await messagingCouple(), await messagingCouple(), await messagingCouple()];
    const about = (to: TestCouple, from: TestCouple, subject: string) =>
      enqueueEmail(db, {
        to: `${subject}@example.com`,
        subject,
        text: `${subject}: their words`,
        html: `<p>${subject}: their words</p>`,
        recipientId: to.a.userId,
        about: [from.b.userId],
      });
    const blocked = await about(ana, rui, "reply-from-rui");
    const suspended = await about(ana, eva, "mention-by-eva");
    const fromPartner = await about(eva, eva, "partner-note");
    expect((await block(rui.coupleId, ana.b.headers)).status).toBe(200);
    await db.update(couples).set({ status: "suspended" }).where(eq(couples.id, eva.coupleId));

    const sent: string[] = [];
    await deliverEmails(db, [blocked, suspended, fromPartner], async (message) => void sent.push(message.subject));
    expect(sent).toEqual(["partner-note"]);
    const rows = await db
      .select({ id: emailOutbox.id, retryAt: emailOutbox.retryAt, lastError: emailOutbox.lastError, text: emailOutbox.text })
      .from(emailOutbox)
      .where(inArray(emailOutbox.id, [blocked, suspended]));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toMatchObject({ retryAt: null, lastError: WITHHELD, text: "" });
  });

  it("is given up by the block itself, each way, with no delivery to come; its other mail and any transactional e-mail stay", async () => {
    const db = await getDb();
    const { one: ana, two: rui, conversationId } = await connected();
    const eva = await messagingCouple();
    const apart = [
      await queueFor(db, ana, [rui.b.userId], "reply-from-rui", reply),
      await queueFor(db, rui, [ana.a.userId], "reply-from-ana", reply),
      // Their conversation's e-mail names the other couple even when no quoted author is left to name.
      await queueFor(db, ana, [], "messages-from-rui", { type: "message", conversationId }),
    ];
    const stay = [
      await queueFor(db, ana, [rui.b.userId], "transactional"),
      await queueFor(db, ana, [eva.b.userId], "reply-from-eva", reply),
      await queueFor(db, eva, [rui.a.userId], "reply-from-rui-to-eva", reply),
      await queueFor(db, ana, [ana.b.userId], "reply-from-partner", reply),
    ];

    expect((await block(rui.coupleId, ana.b.headers)).status).toBe(200);
    const rows = await db
      .select({ id: emailOutbox.id, retryAt: emailOutbox.retryAt, lastError: emailOutbox.lastError, text: emailOutbox.text })
      .from(emailOutbox)
      .where(inArray(emailOutbox.id, [...apart, ...stay]));
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const id of apart) expect(byId.get(id)).toMatchObject({ retryAt: null, lastError: WITHHELD, text: "" });
    for (const id of stay)
      expect(byId.get(id)).toMatchObject({ lastError: null, retryAt: expect.any(Date), text: expect.stringContaining("their words") });
  });

  it("is given up by the suspension itself, each way between the couple and others; its own couple's and any transactional e-mail stay", async () => {
    const db = await getDb();
    const { one: ana, two: rui, conversationId } = await connected();
    const eva = await messagingCouple();
    const apart = [
      await queueFor(db, ana, [rui.b.userId], "reply-from-rui", reply),
      await queueFor(db, rui, [eva.a.userId], "reply-from-eva", reply),
      // Their conversation's e-mail names the other couple even when no quoted author is left to name.
      await queueFor(db, ana, [], "messages-from-rui", { type: "message", conversationId }),
      await queueFor(db, rui, [], "messages-from-ana", { type: "message", conversationId }),
    ];
    const stay = [
      await queueFor(db, ana, [rui.b.userId], "transactional"),
      await queueFor(db, ana, [eva.b.userId], "reply-from-eva-to-ana", reply),
      await queueFor(db, rui, [rui.b.userId], "reply-from-partner", reply),
    ];

    await sanctionCouple(db, null, rui.coupleId, { kind: "suspend", reason: "hate" }, SAFETY_REACTIONS);
    const rows = await db
      .select({ id: emailOutbox.id, retryAt: emailOutbox.retryAt, lastError: emailOutbox.lastError, text: emailOutbox.text })
      .from(emailOutbox)
      .where(inArray(emailOutbox.id, [...apart, ...stay]));
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const id of apart) expect(byId.get(id)).toMatchObject({ retryAt: null, lastError: WITHHELD, text: "" });
    for (const id of stay)
      expect(byId.get(id)).toMatchObject({ lastError: null, retryAt: expect.any(Date), text: expect.stringContaining("their words") });
  });
});

describe("a notification's e-mail, once its person no longer wants it", () => {
  /** A provider that fails its first try, then takes each e-mail (their subjects in `sent`). */
  const failingOnce = () => {
    const sent: string[] = [];
    let failed = false;
    const provider = async (message: { to: string; subject: string }) => {
      if (!failed) {
        failed = true;
        throw new Error("provider down");
      }
      sent.push(message.subject);
    };
    return { sent, provider };
  };

  it("is not sent on its retry once its type's e-mail was turned off; a transactional e-mail to them still goes", async () => {
    const db = await getDb();
    const { a: ana } = await messagingCouple();
    await createNotification(db, { userId: ana.userId, type: "reply", title: "Rui replied", message: "Their words" });
    const [notice] = await db.select().from(emailOutbox).where(eq(emailOutbox.recipientId, ana.userId));
    expect(notice).toMatchObject({ notificationType: "reply", conversationId: null });
    const reset = await enqueueEmail(db, { ...verificationEmail(notice!.to, "Ana", "token-off"), recipientId: ana.userId });
    const { sent, provider } = failingOnce();
    const clock = Date.now();
    await deliverEmails(db, [notice!.id], provider, { now: () => new Date(clock), unwanted: emailUnwanted() });
    await db.insert(notificationPreferences).values({ userId: ana.userId, type: "reply", inApp: true, email: false, push: false });

    const due = await claimEmailRetries(db, new Date(clock + 11 * 60_000));
    expect(due).toEqual(expect.arrayContaining([notice!.id, reset]));
    await deliverEmails(db, [notice!.id, reset], provider, { unwanted: emailUnwanted() });
    expect(sent).toEqual([verificationEmail(notice!.to, "Ana", "token-off").subject]);
    const [dropped] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, notice!.id));
    expect(dropped).toMatchObject({ deliveredAt: null, retryAt: null, lastError: UNWANTED, text: "", html: "" });
    expect(await claimEmailRetries(db, new Date(clock + 24 * 60 * 60_000 - 60_000))).not.toContain(notice!.id);
  });

  it("is not sent once its conversation was muted; a service e-mail goes whatever the choice", async () => {
    const db = await getDb();
    const { one, two, conversationId } = await connected();
    const person = two.a.userId;
    // Left unread: the mute alone drops its e-mail (a conversation read would too).
    expect((await talk.send(conversationId, { body: "Still there?" }, one.a.headers)).status).toBe(201);
    const queue = (type: "message" | "moderation", subject: string) =>
      enqueueEmail(db, {
        to: `${subject}@example.com`,
        subject,
        text: subject,
        html: `<p>${subject}</p>`,
        recipientId: person,
        notice: { type, conversationId: type === "message" ? conversationId : null },
      });
    const message = await queue("message", "new-messages");
    const moderation = await queue("moderation", "suspended");
    await db.insert(notificationPreferences).values({ userId: person, type: "moderation", inApp: true, email: false, push: false });
    expect((await talk.mute(conversationId, true, two.a.headers)).status).toBe(200);

    const sent: string[] = [];
    await deliverEmails(db, [message, moderation], async (mail) => void sent.push(mail.subject), { unwanted: emailUnwanted() });
    expect(sent).toEqual(["suspended"]);
    const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, message));
    expect(row).toMatchObject({ retryAt: null, lastError: UNWANTED });
  });

  /**
   * The unread-message e-mail (the due work's, no delay) to a person of a conversation about the
   * other couple's message (`body`), its first try failed; `dueAgain`: when the due work tries it again.
   */
  async function unreadEmailTriedOnce(body = "Dinner on Friday?") {
    const db = await getDb();
    const { one, two, conversationId } = await connected();
    const sentMessage = await talk.send(conversationId, { body }, one.a.headers);
    const clock = Date.now();
    const ids = await enqueueUnreadMessageEmails(db, new Date(clock + 1_000), 0);
    const [queued] = await db
      .select()
      .from(emailOutbox)
      .where(and(inArray(emailOutbox.id, ids), eq(emailOutbox.recipientId, two.a.userId)));
    expect(queued).toMatchObject({ notificationType: "message", conversationId });
    const { sent, provider } = failingOnce();
    await deliverEmails(db, [queued!.id], provider, { now: () => new Date(clock), unwanted: emailUnwanted() });
    expect(sent).toEqual([]);
    const dueAgain = new Date(clock + 11 * 60_000);
    const retry = async () => {
      expect(await claimEmailRetries(db, dueAgain)).toContain(queued!.id);
      await deliverEmails(db, [queued!.id], provider, { unwanted: emailUnwanted() });
      const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, queued!.id));
      return row!;
    };
    return {
      one,
      two,
      conversationId,
      messageId: sentMessage.json.data.id as string,
      queued: queued!,
      subject: queued!.subject,
      sent,
      provider,
      dueAgain,
      retry,
    };
  }

  it("is not sent on its retry once its person read the conversation, as its push is not", async () => {
    const { two, conversationId, messageId, sent, retry } = await unreadEmailTriedOnce();
    expect((await talk.read(conversationId, { upTo: messageId }, two.a.headers)).status).toBe(200);
    const row = await retry();
    expect(sent).toEqual([]);
    expect(row).toMatchObject({ deliveredAt: null, retryAt: null, lastError: UNWANTED, text: "", html: "" });
  });

  it("is not sent on its retry once its person marked the conversation's bell entry read without opening it, as its push is not", async () => {
    const { two, sent, retry } = await unreadEmailTriedOnce();
    expect(await markNotificationsRead(await getDb(), two.a.userId, { all: true })).toBe(1);
    const row = await retry();
    expect(sent).toEqual([]);
    expect(row).toMatchObject({ deliveredAt: null, retryAt: null, lastError: UNWANTED });
  });

  it("never sends, nor keeps, the words of a message its author erased after it was queued", async () => {
    const db = await getDb();
    const { one, two, conversationId } = await connected();
    const first = await talk.send(conversationId, { body: "Dinner on Friday?" }, one.a.headers);
    const erased = await talk.send(conversationId, { body: "Our secret address is 12 Rua Nova" }, one.a.headers);
    const clock = Date.now();
    const ids = await enqueueUnreadMessageEmails(db, new Date(clock + 1_000), 0);
    const [queued] = await db
      .select()
      .from(emailOutbox)
      .where(and(inArray(emailOutbox.id, ids), eq(emailOutbox.recipientId, two.a.userId)));
    expect(queued!.text).toContain("12 Rua Nova");
    const sent: string[] = [];
    let failed = false;
    const provider = async (message: { text: string }) => {
      if (!failed) {
        failed = true;
        throw new Error("provider down");
      }
      sent.push(message.text);
    };
    await deliverEmails(db, [queued!.id], provider, { now: () => new Date(clock), unwanted: emailUnwanted() });

    expect((await talk.remove(erased.json.data.id, one.a.headers)).status).toBe(200);
    const [waiting] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, queued!.id));
    expect(`${waiting!.text}${waiting!.html}`).not.toContain("12 Rua Nova");
    const due = await claimEmailRetries(db, new Date(clock + 11 * 60_000));
    await deliverEmails(db, due, provider, { unwanted: emailUnwanted() });
    expect(first.status).toBe(201);
    expect(sent.join("\n")).not.toContain("12 Rua Nova");
  });

  it("never sends the words of a message erased while the delivery paces through its batch: each e-mail is read again as it goes", async () => {
    const db = await getDb();
    const { one, two, conversationId } = await connected();
    const erased = await talk.send(conversationId, { body: "Our secret address is 12 Rua Nova" }, one.a.headers);
    const ids = await enqueueUnreadMessageEmails(db, new Date(Date.now() + 1_000), 0);
    const queued = await db
      .select({ id: emailOutbox.id, recipientId: emailOutbox.recipientId })
      .from(emailOutbox)
      .where(and(inArray(emailOutbox.id, ids), inArray(emailOutbox.recipientId, [two.a.userId, two.b.userId])));
    expect(queued).toHaveLength(2);
    const sent: string[] = [];
    // The author erases it while the first e-mail is with the provider: the second is given up meanwhile.
    const provider = async (message: { text: string }) => {
      if (sent.length === 0) expect((await talk.remove(erased.json.data.id, one.a.headers)).status).toBe(200);
      sent.push(message.text);
    };
    await deliverEmails(
      db,
      queued.map((row) => row.id),
      provider,
      { unwanted: emailUnwanted() },
    );
    expect(sent).toHaveLength(1);
    const rows = await db
      .select()
      .from(emailOutbox)
      .where(
        inArray(
          emailOutbox.id,
          queued.map((row) => row.id),
        ),
      );
    expect(rows.filter((row) => row.deliveredAt === null)).toEqual([expect.objectContaining({ retryAt: null, lastError: QUOTE_GONE })]);
  });

  it("never sends the words of a message as they read before its author edited them (a delay shorter than the edit window, or a retry)", async () => {
    const { one, messageId, queued, sent, provider, dueAgain } = await unreadEmailTriedOnce("Meet us at 12 Rua Nova");
    expect(queued.text).toContain("12 Rua Nova");
    const db = await getDb();

    expect((await talk.edit(messageId, { body: "Let us meet somewhere public" }, one.a.headers)).status).toBe(200);
    const [waiting] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, queued.id));
    expect(waiting).toMatchObject({ deliveredAt: null, retryAt: null, lastError: QUOTE_GONE, text: "", html: "" });
    expect(await claimEmailRetries(db, dueAgain)).not.toContain(queued.id);
    await deliverEmails(db, [queued.id], provider, { unwanted: emailUnwanted() });
    expect(sent).toEqual([]);
  });

  it("is sent on its retry while the conversation is still unread for its person, whoever else read it", async () => {
    const { two, conversationId, messageId, subject, sent, retry } = await unreadEmailTriedOnce();
    // Their partner read it: the e-mail's person has not.
    expect((await talk.read(conversationId, { upTo: messageId }, two.b.headers)).status).toBe(200);
    const row = await retry();
    expect(sent).toEqual([subject]);
    expect(row.deliveredAt).toBeInstanceOf(Date);
  });

  it("goes on its retry to the address its person changed to since it was queued, never to the old one", async () => {
    const { two, subject, retry } = await unreadEmailTriedOnce();
    const db = await getDb();
    const [before] = await db.select({ email: users.email }).from(users).where(eq(users.id, two.a.userId));
    const newEmail = `moved-${Date.now()}@example.com`;
    await requestEmailChange(db, two.a.userId, { password: PASSWORD, newEmail });
    await confirmEmailChange(db, two.a.userId, (await linkInLatestMail(newEmail)).searchParams.get("token")!);
    const row = await retry();
    expect(row).toMatchObject({ to: newEmail, subject, lastError: null });
    expect(row.deliveredAt).toBeInstanceOf(Date);
    expect(
      await db
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.to, before!.email), eq(emailOutbox.notificationType, "message"))),
    ).toEqual([]);
  });

  it("waits for a delivery that reads its person's choices: one not handed them leaves it for the due work", async () => {
    const db = await getDb();
    const { a: ana } = await messagingCouple();
    const id = await enqueueEmail(db, {
      ...verificationEmail("unread-choice@example.com", "Ana", "x"),
      recipientId: ana.userId,
      notice: { type: "reply", conversationId: null },
    });
    const sent: string[] = [];
    await deliverEmails(db, [id], async (mail) => void sent.push(mail.to));
    expect(sent).toEqual([]);
    expect(await claimEmailRetries(db, new Date(Date.now() + 11 * 60_000))).toContain(id);
  });
});
