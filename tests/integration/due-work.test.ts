import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as cronGet, POST as cronPost } from "@/app/api/cron/due/route";
import { getDb } from "@/db/client";
import { conversationReads, couples, emailOutbox, liveEvents, liveSequences, messages, notifications, users } from "@/db/schema";
import { runDueWork } from "@/lib/scheduled/service";
import { LOOKBACK_MINUTES } from "@/lib/messages/unread-email";
import { savePreferences } from "@/lib/notifications/preferences";
import { markRead as markNotificationsRead } from "@/lib/notifications/service";
import { call } from "../support/api";
import { acceptWith, invited, partnerA } from "../support/invitations";
import { conversationOfTwo, send } from "../support/live";
import { connected, connections, messagingCouple, talk } from "../support/messages";
import { daysAhead, PLACES, plan } from "../support/plans";

process.env.CRON_SECRET = "cron-secret-for-the-tests-0123";

const MINUTE = 60_000;
const DELAY_S = 900;
const later = (minutes: number) => new Date(Date.now() + minutes * MINUTE);

async function mailTo(...userIds: string[]) {
  const db = await getDb();
  const people = await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, userIds));
  const rows = await db
    .select()
    .from(emailOutbox)
    .where(
      inArray(
        emailOutbox.to,
        people.map((person) => person.email),
      ),
    );
  return Object.fromEntries(people.map((person) => [person.id, rows.filter((row) => row.to === person.email)]));
}

/** Ana & Rui and Leo & Mia (Leo & Mia's couple name set), Leo writing two lines to the conversation, delivered to all four. */
async function leoWrites(...bodies: string[]) {
  const four = await conversationOfTwo();
  const db = await getDb();
  await db.update(couples).set({ coupleName: "Leo & Mia" }).where(eq(couples.id, four.coupleIds.leo));
  await db.update(couples).set({ coupleName: "Ana & Rui" }).where(eq(couples.id, four.coupleIds.ana));
  const everyone = [four.ana, four.rui, four.leo, four.mia].map((who) => who.user.id);
  for (const body of bodies) await send(four.conversationId, { user: four.leo.user, coupleId: four.coupleIds.leo }, body, everyone);
  return { ...four, everyone };
}

describe("runDueWork: the e-mail about unread messages", () => {
  it("tells each person who left a message unread 15 minutes one e-mail: who from, the first lines, the thread, the unsubscribe headers", async () => {
    const { ana, rui, leo, mia, conversationId } = await leoWrites("Dinner on Friday?\nWe found a place.", "Eight o'clock?");
    const db = await getDb();
    expect((await runDueWork(db, later(14), DELAY_S)).emailed).toBe(0);
    expect((await runDueWork(db, later(16), DELAY_S)).emailed).toBe(2);
    const mail = await mailTo(ana.user.id, rui.user.id, leo.user.id, mia.user.id);
    expect(mail[leo.user.id]).toEqual([]);
    const [toAna] = mail[ana.user.id]!;
    expect(mail[ana.user.id]).toHaveLength(1);
    expect(toAna!.subject).toBe("New messages from Leo & Mia");
    expect(toAna!.text).toContain("Ada: Dinner on Friday?\nAda: Eight o'clock?");
    expect(toAna!.text).not.toContain("We found a place.");
    expect(toAna!.text).toContain(`http://localhost:3000/messages/${conversationId}`);
    expect(toAna!.headers).toMatchObject({ "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
    expect(toAna!.headers!["List-Unsubscribe"]).toMatch(/^<http:\/\/localhost:3000\/api\/notifications\/unsubscribe\?token=.+>$/);
    // Mia's own partner wrote: no e-mail, as no notice (lib/messages/access.ts hearsOfMessage).
    expect(mail[mia.user.id]).toEqual([]);
  });

  it("cuts a long first line between characters, never through one: an emoji at the cut is kept whole or left out, not garbled", async () => {
    // 138 letters, then emoji (two UTF-16 units each): the 140-unit cut fell inside the first one.
    const line = `${"a".repeat(138)}${"😀".repeat(4)}`;
    const { ana } = await leoWrites(line);
    const db = await getDb();
    await runDueWork(db, later(16), DELAY_S);
    const [toAna] = (await mailTo(ana.user.id))[ana.user.id]!;
    const quoted = toAna!.text.split("\n").find((text) => text.startsWith("Ada: "))!;
    expect(quoted).not.toContain("\ufffd");
    expect(quoted).toBe(`Ada: ${"a".repeat(138)}😀…`);
  });

  it("follows the notices' one rule: a partner's message left unread gets its partner no e-mail, the other couple still one", async () => {
    const { one, two, conversationId } = await connected();
    expect((await talk.send(conversationId, { body: "Brunch on Sunday?" }, one.a.headers)).status).toBe(201);
    const db = await getDb();
    await runDueWork(db, later(16), DELAY_S);
    const about = (userId: string) => async () =>
      (await mailTo(userId))[userId]!.filter((row) => row.text.includes("Brunch on Sunday?")).map((row) => row.subject);
    // A1 wrote; A2 left it unread past the delay (it counts as unread for them): no e-mail, and no bell entry either.
    expect((await talk.unread(one.b.headers)).json.data.unread_count).toBe(1);
    expect(await about(one.b.userId)()).toEqual([]);
    const notices = await db
      .select({ userId: notifications.userId })
      .from(notifications)
      .where(and(eq(notifications.conversationId, conversationId), eq(notifications.type, "message")));
    expect(notices.map((row) => row.userId).sort()).toEqual([two.a.userId, two.b.userId].sort());
    // The other couple's partners each get one.
    expect(await about(two.a.userId)()).toEqual([`New messages from ${one.name}`]);
    expect(await about(two.b.userId)()).toEqual([`New messages from ${one.name}`]);
    // When the other couple answers, A2 hears of that, quoting only their words.
    await talk.send(conversationId, { body: "Sunday works!" }, two.b.headers);
    await runDueWork(db, later(32), DELAY_S);
    const toA2 = (await mailTo(one.b.userId))[one.b.userId]!.filter((row) => row.subject === `New messages from ${two.name}`);
    expect(toA2).toHaveLength(1);
    expect(toA2[0]!.text).toContain("Sunday works!");
    expect(toA2[0]!.text).not.toContain("Brunch on Sunday?");
  });

  it("sends each e-mail once when two workers run at the same moment", async () => {
    const { ana, rui } = await leoWrites("Are you free on Sunday?");
    const db = await getDb();
    const runs = await Promise.all([runDueWork(db, later(16), DELAY_S), runDueWork(db, later(16), DELAY_S)]);
    expect(runs.map((run) => run.emailed).sort()).toEqual([0, 2]);
    const mail = await mailTo(ana.user.id, rui.user.id);
    expect(mail[ana.user.id]).toHaveLength(1);
    expect(mail[rui.user.id]).toHaveLength(1);
  });

  it("writes at most once an hour per conversation, and never twice about the same message", async () => {
    const { ana, leo, conversationId, everyone, coupleIds } = await leoWrites("First");
    const db = await getDb();
    await runDueWork(db, later(16), DELAY_S);
    await send(conversationId, { user: leo.user, coupleId: coupleIds.leo }, "Second", everyone);
    expect((await runDueWork(db, later(40), DELAY_S)).emailed).toBe(0);
    await runDueWork(db, later(77), DELAY_S);
    const mail = (await mailTo(ana.user.id))[ana.user.id]!;
    expect(mail).toHaveLength(2);
    const second = mail.find((row) => row.text.includes("Second"))!;
    expect(second.text).not.toContain("First");
  });

  it("looks back two hours past the delay: a message left unread while the work was stopped longer gets no e-mail", async () => {
    const { ana } = await leoWrites("Are we still on?");
    const db = await getDb();
    expect((await runDueWork(db, later(15 + LOOKBACK_MINUTES + 1), DELAY_S)).emailed).toBe(0);
    expect((await runDueWork(db, later(15 + LOOKBACK_MINUTES - 1), DELAY_S)).emailed).toBe(2);
    expect((await mailTo(ana.user.id))[ana.user.id]).toHaveLength(1);
  });

  it("writes nothing about what was read, erased, muted, or to a person who turned message e-mails off", async () => {
    const { ana, rui, mia, conversationId } = await leoWrites("Hello there");
    const db = await getDb();
    const [message] = await db
      .select({ id: messages.id, seq: messages.seq })
      .from(messages)
      .where(eq(messages.conversationId, conversationId));
    await db.insert(conversationReads).values([
      { userId: ana.user.id, conversationId, lastReadSeq: message!.seq, lastReadMessageId: message!.id },
      { userId: rui.user.id, conversationId, mutedAt: new Date() },
    ]);
    await savePreferences(db, mia.user.id, { message: { inApp: true, email: false } });
    expect((await runDueWork(db, later(16), DELAY_S)).emailed).toBe(0);

    const other = await leoWrites("Gone soon");
    await db.update(messages).set({ deletedAt: new Date(), body: null }).where(eq(messages.conversationId, other.conversationId));
    expect((await runDueWork(db, later(16), DELAY_S)).emailed).toBe(0);
  });
});

describe("runDueWork: a message whose bell entry was read", () => {
  it("is not e-mailed, as it is not pushed; a message after that read, which the bell never showed, still is, alone", async () => {
    const { one, two, conversationId } = await connected();
    expect((await talk.send(conversationId, { body: "Seen in the bell" }, one.a.headers)).status).toBe(201);
    const db = await getDb();
    // Ana marks her bell read without opening the conversation; Rui leaves his unread.
    await markNotificationsRead(db, two.a.userId, { all: true });
    // The e-mails about messages (the hello's own e-mail aside).
    const aboutMessages = async (userId: string) =>
      (await mailTo(userId))[userId]!.filter((row) => row.subject.startsWith("New messages from"));
    await runDueWork(db, later(16), DELAY_S);
    expect(await aboutMessages(two.a.userId)).toEqual([]);
    expect(await aboutMessages(two.b.userId)).toHaveLength(1);
    // In the app turned off, the next message leaves her read entry as it is: the read does not cover it.
    await savePreferences(db, two.a.userId, { message: { inApp: false, email: true } });
    expect((await talk.send(conversationId, { body: "Not in the bell" }, one.a.headers)).status).toBe(201);
    await runDueWork(db, later(16), DELAY_S);
    const [told, ...more] = await aboutMessages(two.a.userId);
    expect(more).toEqual([]);
    expect(told!.text).toContain("Not in the bell");
    expect(told!.text).not.toContain("Seen in the bell");
  });
});

describe("e-mail to a partner who joined through the shareable link and never proved the address", () => {
  it("is never sent: a hello, the messages left unread and a plan proposed reach them in the app only, their partner by e-mail too", async () => {
    const inviter = await partnerA();
    const link = await invited(inviter);
    const joined = await acceptWith(link.shareToken);
    expect(joined.json).toMatchObject({ verificationRequired: true });
    const db = await getDb();
    const subjectsTo = async (address: string) =>
      (await db.select({ subject: emailOutbox.subject }).from(emailOutbox).where(eq(emailOutbox.to, address))).map((row) => row.subject);
    // The invitation and the verification link: all the address is ever sent.
    const before = await subjectsTo(link.email);
    const others = await messagingCouple();
    const hello = await connections.send({ coupleId: inviter.coupleId, note: "Hello from us" }, others.a.headers);
    const { conversationId } = (await connections.accept(hello.json.data.id, inviter.headers)).json.data;

    expect((await talk.send(conversationId, { body: "Dinner on Friday?" }, others.a.headers)).status).toBe(201);
    const proposed = await plan.propose(
      conversationId,
      { title: "Dinner", startsAt: daysAhead(15), placeId: PLACES.lisbon },
      others.a.headers,
    );
    expect(proposed.status).toBe(201);
    await runDueWork(db, later(16), DELAY_S);

    expect(await subjectsTo(link.email)).toEqual(before);
    const inApp = await db.select({ type: notifications.type }).from(notifications).where(eq(notifications.userId, joined.json.user.id));
    expect(inApp.map((row) => row.type).sort()).toEqual(["connection_request", "message", "plan_proposed"]);
    const toInviter = await subjectsTo(inviter.user.email);
    expect(toInviter).toContain(`New messages from ${others.name}`);
    expect(toInviter).toContain("New plan: Dinner");
  });
});

describe("runDueWork: the live history", () => {
  it("trims each person's history up to a seq, never leaving a hole: a later seq may be older (its transaction began first)", async () => {
    const db = await getDb();
    const [person] = await db
      .insert(users)
      .values({ email: `live-${Date.now()}@example.com`, firstName: "Ana", lastName: "Hart", dateOfBirth: "1990-01-01", passwordHash: "x" })
      .returning({ id: users.id });
    const days = (n: number) => new Date(Date.now() - n * 86_400_000);
    const written = [days(9), days(9), days(6), days(8), days(0)];
    await db.insert(liveSequences).values({ userId: person!.id, lastSeq: written.length });
    await db
      .insert(liveEvents)
      .values(written.map((createdAt, index) => ({ userId: person!.id, seq: index + 1, kind: "connection", createdAt })));
    await runDueWork(db, new Date(), DELAY_S);
    const kept = await db.select({ seq: liveEvents.seq }).from(liveEvents).where(eq(liveEvents.userId, person!.id));
    // Up to seq 4 (the newest row past the seven days) goes; seq 3, younger but before it, with it.
    expect(kept.map((row) => row.seq)).toEqual([5]);
  });
});

describe("POST /api/cron/due", () => {
  it("runs the due work for the bearer of CRON_SECRET, by POST or by the platform cron's GET, and refuses anyone else", async () => {
    const refused: Record<string, string>[] = [
      {},
      { authorization: "Bearer wrong-secret-wrong-secret" },
      { authorization: "cron-secret-for-the-tests-0123" },
    ];
    for (const headers of refused) {
      expect((await call(cronPost, "POST", "/api/cron/due", { headers })).status).toBe(401);
    }
    const authorization = `Bearer ${process.env.CRON_SECRET}`;
    for (const handler of [cronPost, cronGet]) {
      const answer = await call(handler, handler === cronPost ? "POST" : "GET", "/api/cron/due", { headers: { authorization } });
      expect(answer.status).toBe(200);
      expect(answer.json.data).toEqual({
        emailed: expect.any(Number),
        reminded: expect.any(Number),
        pruned: expect.any(Number),
        pushed: expect.any(Number),
        swept: expect.any(Number),
        mailDropped: expect.any(Number),
        linksDropped: expect.any(Number),
        sessionsDropped: expect.any(Number),
        filesRemoved: expect.any(Number),
        helloNoticesRead: expect.any(Number),
        topRebuilt: expect.any(Boolean),
      });
    }
  });
});
