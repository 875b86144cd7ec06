import { randomUUID } from "node:crypto";
import postgres from "postgres";
import { and, count, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DELETE as deleteAccountRoute } from "@/app/api/account/route";
import { POST as changeEmailRoute } from "@/app/api/auth/change-email/route";
import { POST as confirmEmailRoute } from "@/app/api/auth/confirm-email/route";
import { GET as exportRoute } from "@/app/api/account/export/route";
import { GET as listEventsRoute, POST as createEventRoute } from "@/app/api/events/route";
import { POST as normalizeRoute } from "@/app/api/locations/normalize/route";
import { getDb } from "@/db/client";
import {
  couples,
  emailOutbox,
  heldRequests,
  invitations,
  liveEvents,
  locations,
  messages,
  moderationAppeals,
  notifications,
  plans,
  rateLimitHits,
  reports,
  users,
} from "@/db/schema";
import { authenticate } from "@/lib/auth/credentials";
import { issueVerificationEmail } from "@/lib/auth/email-verification";
import { hashToken } from "@/lib/auth/secrets";
import { runDueWork } from "@/lib/scheduled/service";
import { imageStorage, newStorageKey } from "@/lib/storage";
import { accountOverview } from "@/lib/account/queries";
import { APPEAL_TEXTS } from "@/lib/safety/appeals";
import { PASSWORD, browserSession, call, createUser } from "../support/api";
import { LISBON } from "../support/couples";
import { linkInLatestMail } from "../support/flows";
import { forum, forumCouple, mentioning, postBody, type Headers } from "../support/forum";
import { JOIN_PASSWORD, acceptWith, invited, partnerA, partnerEmail } from "../support/invitations";
import { conversationOfTwo, send } from "../support/live";
import { connected, connections, messagingCouple, requestRow, talk } from "../support/messages";
import { daysAhead, PLACES, plan } from "../support/plans";
import { allHeldCouples, appeals, coupleRecordOf, moderation, moderatorCouple, sanctions } from "../support/moderation";
import { lockWaits, nextWhileWaiting, whileHeld } from "../support/lock-race";
import { onPostgres } from "../support/test-database";

const exportOf = (headers: Headers) => call(exportRoute, "GET", "/api/account/export", { headers: { cookie: headers.cookie! } });
const remove = (headers: Headers, password = PASSWORD) =>
  call(deleteAccountRoute, "DELETE", "/api/account", { body: { password }, headers });

/**
 * Runs `during` while the person's deletion is under way (their rows held, not yet committed): a
 * notice naming them is held on a second connection, so the deletion waits on it; `during` starts
 * once it waits, and the holder commits once both wait (or `during` has answered).
 */
async function whileDeleting<T>(person: { userId: string; headers: Headers }, during: () => Promise<T>) {
  const db = await getDb();
  const [notice] = await db
    .insert(notifications)
    .values({ userId: person.userId, type: "reaction", title: "Held", message: "Held", actorUserId: person.userId })
    .returning({ id: notifications.id });
  const [deleted, answer] = await whileHeld<unknown>(
    (tx) => tx`select id from notifications where id = ${notice!.id} for update`,
    [
      () => remove(person.headers),
      async () => {
        await lockWaits(1);
        return during();
      },
    ],
    2,
  );
  return { deleted: deleted as Awaited<ReturnType<typeof remove>>, answer: answer as T };
}

const mailTo = async (to: string) => {
  const db = await getDb();
  return db.select({ subject: emailOutbox.subject, about: emailOutbox.aboutUserIds }).from(emailOutbox).where(eq(emailOutbox.to, to));
};
const subjects = async (to: string) => (await mailTo(to)).map((mail) => mail.subject);

describe("DELETE /api/account erases the person everywhere", () => {
  it("drops the hellos the spam rule holds from them: no moderator reads them, none can be delivered; their partner's stay", async () => {
    const couple = await forumCouple();
    const [one, two] = [await forumCouple(), await forumCouple()];
    const { headers: moderator } = await moderatorCouple();
    const db = await getDb();
    const [theirs] = await db
      .insert(heldRequests)
      .values({ fromCoupleId: couple.coupleId, toCoupleId: one.coupleId, sentByUserId: couple.b.userId, note: "B's own words" })
      .returning({ id: heldRequests.id });
    await db
      .insert(heldRequests)
      .values({ fromCoupleId: couple.coupleId, toCoupleId: two.coupleId, sentByUserId: couple.a.userId, note: "A's own words" });

    expect((await remove(couple.b.headers)).json.data.couple).toBe("kept-with-partner");

    const left = await db.select({ note: heldRequests.note }).from(heldRequests).where(eq(heldRequests.fromCoupleId, couple.coupleId));
    expect(left).toEqual([{ note: "A's own words" }]);
    expect((await allHeldCouples({ coupleId: null })).find((row) => row.coupleId === couple.coupleId)).toMatchObject({
      held: 1,
      note: "A's own words",
    });
    const record = (await coupleRecordOf(couple.coupleId, moderator)).json.data;
    expect(record.held.map((hello: { note: string }) => hello.note)).toEqual(["A's own words"]);
    expect((await moderation.decideHeld(theirs!.id, "deliver", moderator)).status).toBe(404);
  });

  it("a hello their partner accepted under 'Both of us approve' while it waited for them is accepted: a couple of one partner needs one", async () => {
    const one = await messagingCouple();
    const two = await messagingCouple({ bothApprove: true });
    const sent = (await connections.send({ coupleId: two.coupleId, note: "Hello from us" }, one.a.headers)).json.data;
    expect((await connections.accept(sent.id, two.a.headers)).json.data).toEqual({ status: "pending", waitingFor: two.b.firstName });

    expect((await remove(two.b.headers)).json.data.couple).toBe("kept-with-partner");
    // Otherwise it waits, with no badge for the partner who answered, until it expires.
    const request = await requestRow(sent.id);
    expect(request).toEqual({ status: "accepted", conversationId: expect.any(String) });
    expect((await talk.inbox(one.a.headers)).json.data.map((c: { id: string }) => c.id)).toContain(request!.conversationId);
  });

  it("their event drafts go with them (their words); their partner's stay with the couple, whichever partner leaves", async () => {
    const draft = (title: string, headers: Headers) =>
      call(createEventRoute, "POST", "/api/events", {
        headers,
        body: {
          title,
          startsAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
          placeId: LISBON,
          capacity: 12,
          priceCents: 2500,
          currency: "EUR",
          description: "Four wines from the Douro, on a rooftop, with cheese.",
        },
      });
    const titles = async (headers: Headers) =>
      (await call(listEventsRoute, "GET", "/api/events", { headers })).json.data.map((d: { title: string }) => d.title).sort();
    const db = await getDb();
    for (const leaving of ["b", "a"] as const) {
      const couple = await forumCouple();
      await db.update(couples).set({ canCreatePaidEvents: true }).where(eq(couples.id, couple.coupleId));
      const staying = leaving === "a" ? "b" : "a";
      expect((await draft("Leaver's tasting", couple[leaving].headers)).status).toBe(201);
      expect((await draft("Stayer's picnic", couple[staying].headers)).status).toBe(201);
      expect(await titles(couple[staying].headers)).toEqual(["Leaver's tasting", "Stayer's picnic"]);

      expect((await remove(couple[leaving].headers)).json.data.couple).toBe("kept-with-partner");
      expect(await titles(couple[staying].headers), `partner ${leaving} left`).toEqual(["Stayer's picnic"]);
    }
  });

  it("keeps the couple's photo that partner B took as their avatar: the partner who stays still shows it", async () => {
    const couple = await forumCouple();
    const storage = await imageStorage();
    const key = newStorageKey("couple-main");
    const { url } = await storage.put(key, Buffer.from("a couple photo"), "image/jpeg");
    const db = await getDb();
    await db.update(couples).set({ profileImageUrl: url }).where(eq(couples.id, couple.coupleId));
    await db.update(users).set({ avatarUrl: url }).where(eq(users.id, couple.b.userId));
    expect((await remove(couple.b.headers)).json.data.couple).toBe("kept-with-partner");
    expect(await storage.read(key), "the couple's photo is still stored").not.toBeNull();
  });

  it("their words in plans go (a note they wrote, a reason for cancelling); the plans and others' words stay", async () => {
    const { one, two, conversationId } = await connected();
    const propose = (note: string, h: Headers) =>
      plan.propose(conversationId, { title: "Dinner", startsAt: daysAhead(10), placeId: PLACES.lisbon, note }, h);
    const theirs = (await propose("We know a quiet table", one.a.headers)).json.data;
    const partners = (await propose("Our treat", one.b.headers)).json.data;
    const partnerCancelled = (await propose("Third time lucky", one.b.headers)).json.data;
    expect((await plan.cancel(partners.id, { reason: "Ana is ill" }, one.a.headers)).status).toBe(200);
    expect((await plan.cancel(partnerCancelled.id, { reason: "Rui is away" }, one.b.headers)).status).toBe(200);
    // A note is whoever wrote it as it stands: one.a's rewrite of the other couple's, the other couple's of one.a's.
    const rewritten = (
      await plan.propose(conversationId, { title: "Lunch", startsAt: daysAhead(11), placeId: PLACES.lisbon, note: "Ours" }, two.a.headers)
    ).json.data;
    const theirsRewritten = (await propose("Ana's first note", one.a.headers)).json.data;
    expect((await plan.change(rewritten.id, { note: "Call me on 555-0101" }, one.a.headers)).status).toBe(200);
    expect((await plan.change(theirsRewritten.id, { note: "Theo: call me on 555-0199" }, two.a.headers)).status).toBe(200);

    expect((await remove(one.a.headers)).status).toBe(200);
    const db = await getDb();
    const rows = await db
      .select({ id: plans.id, title: plans.title, note: plans.note, cancelReason: plans.cancelReason })
      .from(plans)
      .where(eq(plans.conversationId, conversationId));
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(theirs.id)).toMatchObject({ title: "Dinner", note: null });
    expect(byId.get(partners.id)).toMatchObject({ note: "Our treat", cancelReason: null });
    expect(byId.get(partnerCancelled.id)).toMatchObject({ note: "Third time lucky", cancelReason: "Rui is away" });
    expect(byId.get(rewritten.id)).toMatchObject({ title: "Lunch", note: null });
    expect(byId.get(theirsRewritten.id)).toMatchObject({ note: "Theo: call me on 555-0199" });
  });

  it("their appeals lose their words, not the fact: the partner who stays cannot appeal the same action again", async () => {
    const couple = await forumCouple();
    const { headers: moderator } = await moderatorCouple();
    // Another decides: the one who acted may not once the team has two.
    const { headers: other } = await moderatorCouple();
    const act = async (body: unknown) => (await sanctions.act(couple.coupleId, body, moderator)).json.data.id as string;
    const restricted = await act({ kind: "restrict", reason: "spam", days: 7 });
    const warned = await act({ kind: "warn", reason: "spam" });
    const refused = (await appeals.file({ sanctionId: restricted, body: "A's appeal, call me on 555-0101" }, couple.a.headers)).json.data
      .id as string;
    expect((await appeals.decide(refused, "refuse", other)).status).toBe(200);
    const waiting = (await appeals.file({ sanctionId: warned, body: "A's second appeal, 555-0102" }, couple.a.headers)).json.data
      .id as string;

    expect((await remove(couple.a.headers)).json.data.couple).toBe("kept-with-partner");
    const db = await getDb();
    const left = await db.select({ body: moderationAppeals.body, userId: moderationAppeals.userId }).from(moderationAppeals);
    expect(left).toEqual([
      { body: "", userId: null },
      { body: "", userId: null },
    ]);
    const again = await appeals.file({ sanctionId: restricted, body: "B's appeal" }, couple.b.headers);
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe("ALREADY_REPORTED");
    // The appeal still waiting reads as a deleted member's in the moderators' queue.
    const queued = (await appeals.open(other)).json.data.find((appeal: { id: string }) => appeal.id === waiting);
    expect(queued).toMatchObject({ body: APPEAL_TEXTS.erased, sanction: { id: warned } });
  });

  it("the failed sign-ins counted against their address go too", async () => {
    const user = await createUser();
    const session = await browserSession(user.id);
    const db = await getDb();
    await expect(authenticate(db, { email: user.email, password: "Wrong-1" }, { clientAddress: "203.0.113.7" })).rejects.toMatchObject({
      code: "INVALID_CREDENTIALS",
    });
    const naming = () =>
      db
        .select()
        .from(rateLimitHits)
        .where(sql`strpos(${rateLimitHits.subject}, ${user.email}) > 0`);
    expect(await naming()).toHaveLength(2);
    expect((await remove({ cookie: session.cookie, "x-csrf-token": session.csrf })).status).toBe(200);
    expect(await naming()).toEqual([]);
  });

  it("partner A with a partner 2 who joined through the shareable link and never proved the address: nobody keeps the couple, that partner goes too", async () => {
    const inviter = await partnerA("Marisol & Co");
    const { email, shareToken } = await invited(inviter);
    expect((await acceptWith(shareToken)).status).toBe(200);
    const db = await getDb();
    const [unproven] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    expect(unproven).toBeDefined();
    // The page says so beforehand: the couple's profile goes.
    expect((await accountOverview(db, inviter.user.id)).couple).toBe("alone");

    expect((await remove(inviter.headers)).json).toEqual({ data: { couple: "deleted" } });
    expect(await db.select().from(couples).where(eq(couples.id, inviter.coupleId))).toEqual([]);
    expect(
      await db
        .select()
        .from(users)
        .where(inArray(users.id, [inviter.user.id, unproven!.id])),
    ).toEqual([]);
  });

  it("partner B: the e-mails to their address and the couple's invitations naming them go; partner A's own mail, invitations and export stay", async () => {
    const inviter = await partnerA("Marisol & Co");
    const email = partnerEmail("leaving");
    const db = await getDb();
    // An earlier invitation to the same person, one to a mistyped address under their names (its
    // e-mail still waiting), and one partner A sent to someone else: all revoked.
    const mistyped = partnerEmail("thadeus-typo");
    const revoked = {
      coupleId: inviter.coupleId,
      inviterId: inviter.user.id,
      expiresAt: new Date(Date.now() + 86_400_000),
      revokedAt: new Date(),
    };
    const elsewhere = partnerEmail("someone-else");
    await db.insert(invitations).values([
      { ...revoked, partnerEmail: email, partnerFirstName: "Thaddeus", partnerLastName: "Grant", tokenHash: hashToken(randomUUID()) },
      { ...revoked, partnerEmail: mistyped, partnerFirstName: "thaddeus", partnerLastName: "GRANT", tokenHash: hashToken(randomUUID()) },
      { ...revoked, partnerEmail: elsewhere, partnerFirstName: "Noor", partnerLastName: "Haddad", tokenHash: hashToken(randomUUID()) },
    ]);
    const invitationMail = (to: string, name: string) => ({
      to,
      subject: `${name}, join Marisol`,
      text: "",
      html: "",
      aboutUserIds: [inviter.user.id],
    });
    await db.insert(emailOutbox).values([invitationMail(mistyped, "Thaddeus"), invitationMail(elsewhere, "Noor")]);
    // Someone with an account at the mistyped address: their own mail naming partner A is theirs.
    const stranger = await createUser({ email: mistyped });
    await db
      .insert(emailOutbox)
      .values({ to: mistyped, subject: "Marisol reacted", text: "", html: "", aboutUserIds: [stranger.id, inviter.user.id] });
    const { token } = await invited(inviter, email);
    expect((await acceptWith(token)).status).toBe(200);
    const [partner] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    const session = await browserSession(partner!.id);
    // As every e-mail to a person's account carries their id (lib/mail/outbox.ts enqueueEmails).
    const theirs = { recipientId: partner!.id, aboutUserIds: [partner!.id] };
    await db.insert(emailOutbox).values([
      { ...theirs, to: email, subject: "Not yet delivered", text: "Hi Thaddeus", html: "<p>Hi Thaddeus</p>" },
      { ...theirs, to: email, subject: "Delivered", text: "", html: "", deliveredAt: new Date() },
      { to: inviter.user.email, subject: "For partner A", text: "Hi Marisol", html: "<p>Hi Marisol</p>" },
    ]);
    expect((await subjects(email)).length).toBeGreaterThanOrEqual(3);

    const res = await remove({ cookie: session.cookie, "x-csrf-token": session.csrf }, JOIN_PASSWORD);
    expect(res.json).toEqual({ data: { couple: "kept-with-partner" } });

    expect(await mailTo(email)).toEqual([]);
    expect(await subjects(mistyped)).toEqual(["Marisol reacted"]);
    expect(await subjects(elsewhere)).toEqual(["Noor, join Marisol"]);
    expect(await subjects(inviter.user.email)).toContain("For partner A");
    const left = await db
      .select({ partnerEmail: invitations.partnerEmail })
      .from(invitations)
      .where(eq(invitations.coupleId, inviter.coupleId));
    expect(left).toEqual([{ partnerEmail: elsewhere }]);

    const exported = await exportOf(inviter.headers);
    expect(exported.status).toBe(200);
    expect(exported.json.invitationsSent).toEqual([expect.objectContaining({ partnerEmail: elsewhere, partnerFirstName: "Noor" })]);
    const text = JSON.stringify(exported.json);
    for (const named of [email, "Thaddeus", "Grant"]) expect(text).not.toContain(named);
  });

  it("the e-mails to an address they had before, or asked to change to, go too (each carries their id)", async () => {
    const user = await createUser();
    const session = await browserSession(user.id);
    const headers = { cookie: session.cookie, "x-csrf-token": session.csrf };
    const [moved, asked] = [`moved-${randomUUID()}@example.com`, `asked-${randomUUID()}@example.com`];
    const change = (newEmail: string) =>
      call(changeEmailRoute, "POST", "/api/auth/change-email", { body: { password: PASSWORD, newEmail }, headers });
    expect((await change(moved)).status).toBe(200);
    const token = (await linkInLatestMail(moved)).searchParams.get("token")!;
    expect((await call(confirmEmailRoute, "POST", "/api/auth/confirm-email", { body: { token }, headers })).status).toBe(200);
    // Asked again from the new address, never confirmed: the link waits at the other address.
    expect((await change(asked)).status).toBe(200);
    for (const address of [user.email, moved, asked])
      expect(await mailTo(address)).toContainEqual(expect.objectContaining({ about: [user.id] }));

    expect((await remove(headers)).json.data.couple).toBe("none");
    for (const address of [user.email, moved, asked]) expect(await mailTo(address)).toEqual([]);
  });

  it("another couple's invitation e-mail to their address, sent while it was unproven, is not theirs: it stays, their own mail goes", async () => {
    const email = partnerEmail("held-unproven");
    const person = await createUser({ email, emailVerifiedAt: null });
    const db = await getDb();
    const ownMail = await issueVerificationEmail(db, { id: person.id, email, firstName: person.firstName });
    // An address whose account never proved it may be invited (lib/invitations/join.ts replaceableAccount).
    const otherInviter = await partnerA("Rosa & Ben");
    await invited(otherInviter, email);
    const othersInvitation = (await db.select().from(emailOutbox).where(eq(emailOutbox.to, email))).find(
      (mail) => mail.id !== ownMail && mail.aboutUserIds.includes(otherInviter.user.id),
    );
    expect(othersInvitation).toBeDefined();
    await db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, person.id));
    const session = await browserSession(person.id);

    expect((await remove({ cookie: session.cookie, "x-csrf-token": session.csrf })).json.data.couple).toBe("none");
    const left = (await db.select({ id: emailOutbox.id }).from(emailOutbox).where(eq(emailOutbox.to, email))).map((mail) => mail.id);
    expect(left).toEqual([othersInvitation!.id]);
  });

  it("the e-mails naming or quoting them go too: the others' unread-message e-mails quoting them, the invitation they sent; the rest stays", async () => {
    const { ana, rui, leo, mia, conversationId, coupleIds } = await conversationOfTwo();
    const db = await getDb();
    const everyone = [ana, rui, leo, mia].map((who) => who.user.id);
    await send(conversationId, { user: leo.user, coupleId: coupleIds.leo }, "Dinner on Friday?", everyone);
    // The other couple's two get one each; Leo's own partner none (lib/messages/access.ts hearsOfMessage).
    expect((await runDueWork(db, new Date(Date.now() + 16 * 60_000), 900)).emailed).toBe(2);
    for (const who of [ana, rui])
      expect(await mailTo(who.user.email)).toEqual([expect.objectContaining({ about: [who.user.id, leo.user.id] })]);
    expect(await mailTo(mia.user.email)).toEqual([]);
    await db.insert(emailOutbox).values({ to: ana.user.email, subject: "For Ana alone", text: "Hi Ana", html: "<p>Hi Ana</p>" });

    // Leo's invitation to a friend, waiting in the outbox with his name in it.
    const inviter = await partnerA("Leo's friends");
    const friend = partnerEmail("friend-of-leo");
    await invited(inviter, friend);
    expect(await mailTo(friend)).toEqual([expect.objectContaining({ about: [inviter.user.id] })]);

    expect((await remove(leo.headers)).json.data.couple).toBe("kept-with-partner");
    expect(await subjects(ana.user.email)).toEqual(["For Ana alone"]);
    expect(await mailTo(rui.user.email)).toEqual([]);
    expect(await mailTo(mia.user.email)).toEqual([]);

    expect((await remove(inviter.headers)).json.data.couple).toBe("deleted");
    expect(await mailTo(friend)).toEqual([]);
  });

  it("someone who wrote thousands of messages: the deletion succeeds, every one erased, the three others told of each", async () => {
    const { one, two, conversationId } = await connected();
    const db = await getDb();
    // A live row per message for each of the other three, five parameters a row: past the 65,534 one statement takes.
    const written = 6_000;
    await db.execute(sql`
      insert into ${messages} (conversation_id, author_user_id, author_couple_id, body)
      select ${conversationId}, ${two.b.userId}, ${two.coupleId}, 'Message ' || n from generate_series(1, ${written}) as n`);

    const answer = await remove(two.b.headers);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json.data.couple).toBe("kept-with-partner");
    const [left] = await db
      .select({ all: count(), erased: count(messages.deletedAt), words: count(messages.body) })
      .from(messages)
      .where(eq(messages.conversationId, conversationId));
    expect(left).toEqual({ all: written, erased: written, words: 0 });
    const told = await db
      .select({ rows: count() })
      .from(liveEvents)
      .where(and(eq(liveEvents.kind, "message_deleted"), inArray(liveEvents.userId, [one.a.userId, one.b.userId, two.a.userId])))
      .groupBy(liveEvents.userId);
    expect(told).toEqual([{ rows: written }, { rows: written }, { rows: written }]);
  });

  it("the others' bell entry of a conversation that only their messages left unread is read, as an erasure reads it", async () => {
    const { one, two, conversationId } = await connected();
    expect((await talk.send(conversationId, { body: "From the one who goes" }, two.a.headers)).status).toBe(201);
    const partners = await talk.send(conversationId, { body: "From the partner who stays" }, two.b.headers);
    // The partner erases theirs: the entry, naming the partner, stays unread for the message left.
    expect((await talk.remove(partners.json.data.id, two.b.headers)).status).toBe(200);
    const db = await getDb();
    const entries = () =>
      db
        .select({ userId: notifications.userId, isRead: notifications.isRead })
        .from(notifications)
        .where(
          and(eq(notifications.groupKey, `conversation:${conversationId}`), inArray(notifications.userId, [one.a.userId, one.b.userId])),
        )
        .orderBy(notifications.userId);
    const unread = [one.a.userId, one.b.userId].sort().map((userId) => ({ userId, isRead: false }));
    expect(await entries()).toEqual(unread);

    expect((await remove(two.a.headers)).status).toBe(200);
    expect(await entries()).toEqual(unread.map((entry) => ({ ...entry, isRead: true })));
  });

  it("a notification's e-mail naming them (a reply of theirs) goes with them", async () => {
    const [one, two] = [await forumCouple(), await forumCouple()];
    const post = await forum.create(postBody(), one.a.headers);
    expect((await forum.reply(post.json.data.id, { body: "Count us in" }, two.a.headers)).status).toBe(201);
    const db = await getDb();
    const [author] = await db.select({ email: users.email }).from(users).where(eq(users.id, one.a.userId));
    expect(await mailTo(author!.email)).toEqual([expect.objectContaining({ about: [one.a.userId, two.a.userId] })]);
    await remove(two.a.headers);
    expect(await mailTo(author!.email)).toEqual([]);
  });
});

describe.skipIf(!onPostgres())("a deletion beside another writer of the person and their couple at one instant: no deadlock", () => {
  it("Top's window moving (or rebuilt): the deletion waits for it, holding none of the posts it updates next", async () => {
    const couple = await forumCouple();
    const post = (await forum.create(postBody(), couple.a.headers)).json.data as { id: string };
    const { waited, answer } = await nextWhileWaiting(
      // What decayTopScores and rebuildTopScores take first (lib/forum/top.ts), then the posts' scores.
      async (tx) => {
        await tx`insert into forum_top_window (id) values (1) on conflict do nothing`;
        await tx`select 1 from forum_top_window where id = 1 for update`;
      },
      () => remove(couple.a.headers),
      (tx) => tx`select id from forum_posts where id = ${post.id} for no key update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
  });

  it("a profile save holding the person's row: the deletion waits for it, holding nothing the save takes next", async () => {
    const couple = await forumCouple();
    const { waited, answer } = await nextWhileWaiting(
      // What a profile or onboarding save takes first (lib/profile/service.ts), then their couple.
      (tx) => tx`select id from users where id = ${couple.a.userId} for update`,
      () => remove(couple.a.headers),
      (tx) => tx`select id from couples where id = ${couple.coupleId} for update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.json).toEqual({ data: { couple: "kept-with-partner" } });
  });

  it("the partner's profile save holding the partner's row: the deletion waits for it, holding nothing the save takes next", async () => {
    const couple = await forumCouple();
    const { waited, answer } = await nextWhileWaiting(
      // What the partner's profile save naming an image takes first (lib/images/lifecycle.ts), then their couple.
      (tx) => tx`select id from users where id = ${couple.b.userId} for update`,
      // Partner A goes: the partner becomes partner A (the couple's partner1_id, a foreign key to their row).
      () => remove(couple.a.headers),
      (tx) => tx`select id from couples where id = ${couple.coupleId} for update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.json).toEqual({ data: { couple: "kept-with-partner" } });
  });

  it("partner A beside the verification of a partner 2 who joined through the shareable link: the deletion waits, and the partner who proved the address keeps the couple", async () => {
    const inviter = await partnerA("Marisol & Co");
    const { email, shareToken } = await invited(inviter);
    expect((await acceptWith(shareToken)).status).toBe(200);
    const [answer] = await whileHeld(
      // What verifyEmail does to the account, its transaction still open.
      (tx) => tx`update users set email_verified_at = now() where email = ${email}`,
      [() => remove(inviter.headers)],
    );
    expect(answer!.json).toEqual({ data: { couple: "kept-with-partner" } });
    const db = await getDb();
    const [kept] = await db.select({ partner1Id: couples.partner1Id }).from(couples).where(eq(couples.id, inviter.coupleId));
    const [partner] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    expect(kept).toEqual({ partner1Id: partner!.id });
  });

  it("partner A beside their invitation's send, with a partner 2 who never proved the address: the deletion holds nothing of that partner's while it waits on partner A's row", async () => {
    const inviter = await partnerA("Marisol & Co");
    // The lowest id there is, so a lock taken in id order takes this row before partner A's.
    const unproven = await createUser({
      id: "00000000-0000-4000-8000-000000000001",
      email: partnerEmail(),
      emailVerifiedAt: null,
      registrationType: "partner_invitation",
    });
    const db = await getDb();
    await db.update(couples).set({ partner2Id: unproven.id }).where(eq(couples.id, inviter.coupleId));
    const { waited, answer } = await nextWhileWaiting(
      // What an invitation's send takes first (lib/invitations/send.ts): the inviter's row key-share, then the couple.
      async (tx) => {
        await tx`select id from users where id = ${inviter.user.id} for key share`;
        await tx`select id from couples where id = ${inviter.coupleId} for update`;
      },
      () => remove(inviter.headers),
      // ...then the unproven partner 2's row, to release them. NOWAIT: it fails if the deletion holds it while it waits.
      (tx) => tx`select id from users where id = ${unproven.id} for update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.json).toEqual({ data: { couple: "deleted" } });
  });

  it("partner A beside a join through the shareable link: the deletion waits, and the partner who never proved the address is released, not left with the couple", async () => {
    const inviter = await partnerA("Marisol & Co");
    const { email } = await invited(inviter);
    const unproven = await createUser({ email, emailVerifiedAt: null, registrationType: "partner_invitation" });
    const [answer] = await whileHeld(
      // What a join through the shareable link does to the couple (lib/invitations/join.ts joinCouple), its transaction still open.
      (tx) => tx`update couples set partner2_id = ${unproven.id} where id = ${inviter.coupleId}`,
      [() => remove(inviter.headers)],
    );
    expect(answer!.json).toEqual({ data: { couple: "deleted" } });
    const db = await getDb();
    expect(await db.select({ id: couples.id }).from(couples).where(eq(couples.id, inviter.coupleId))).toEqual([]);
    expect(await db.select({ id: users.id }).from(users).where(eq(users.id, unproven.id))).toEqual([]);
  });

  it("a place saved while the deletion runs: it waits, and no place of theirs (its exact point) stays", async () => {
    const couple = await forumCouple();
    const { deleted, answer } = await whileDeleting(couple.b, () =>
      call(normalizeRoute, "POST", "/api/locations/normalize", {
        body: { place_id: PLACES.lisbon, entity_type: "user", entity_id: couple.b.userId, privacy_level: "full" },
        headers: couple.b.headers,
      }),
    );
    expect(deleted.json).toEqual({ data: { couple: "kept-with-partner" } });
    const db = await getDb();
    expect(await db.select().from(locations).where(eq(locations.entityId, couple.b.userId))).toEqual([]);
    expect(answer.status).toBe(404);
  });

  it("an appeal filed while the deletion runs: it waits, and no words of theirs stay with it", async () => {
    const couple = await forumCouple();
    const { headers: moderator } = await moderatorCouple();
    const warned = (await sanctions.act(couple.coupleId, { kind: "warn", reason: "spam" }, moderator)).json.data.id as string;
    const { deleted, answer } = await whileDeleting(couple.a, () =>
      appeals.file({ sanctionId: warned, body: "A's appeal, call me on 555-0103" }, couple.a.headers),
    );
    expect(deleted.json).toEqual({ data: { couple: "kept-with-partner" } });
    const db = await getDb();
    expect(await db.select().from(moderationAppeals).where(eq(moderationAppeals.sanctionId, warned))).toEqual([]);
    expect(answer.status).toBe(404);
  });

  it("a hello the spam rule holds, sent while the deletion runs: it waits, and no held note of theirs stays", async () => {
    const couple = await forumCouple();
    const asked = await forumCouple();
    const db = await getDb();
    // The same note already went to five couples today (the partner's): the next one is held.
    for (let n = 0; n < 5; n++)
      await db.insert(heldRequests).values({
        fromCoupleId: couple.coupleId,
        toCoupleId: (await forumCouple()).coupleId,
        sentByUserId: couple.a.userId,
        note: "Drinks on us this Friday?",
      });
    const { deleted, answer } = await whileDeleting(couple.b, () =>
      connections.send({ coupleId: asked.coupleId, note: "Drinks on us this Friday?" }, couple.b.headers),
    );
    expect(deleted.json).toEqual({ data: { couple: "kept-with-partner" } });
    expect(await db.select().from(heldRequests).where(eq(heldRequests.sentByUserId, couple.b.userId))).toEqual([]);
    expect(answer.status).toBe(404);
  });

  it("reports of their message and hello filed while the deletion runs: they wait, and no copy of their words stays", async () => {
    const { one, two, conversationId } = await connected();
    const three = await messagingCouple();
    const message = (await talk.send(conversationId, { body: "B's message, call me on 555-0105" }, one.b.headers)).json.data.id as string;
    const hello = (await connections.send({ coupleId: three.coupleId, note: "B's hello, call me on 555-0106" }, one.b.headers)).json.data
      .id as string;
    const { deleted, answer } = await whileDeleting(one.b, () =>
      Promise.all([
        moderation.report({ targetType: "message", targetId: message, reason: "harassment" }, two.a.headers),
        moderation.report({ targetType: "request", targetId: hello, reason: "spam" }, three.a.headers),
      ]),
    );
    expect(deleted.json).toEqual({ data: { couple: "kept-with-partner" } });
    const db = await getDb();
    const copies = await db
      .select({ title: reports.reportedTitle, body: reports.reportedBody })
      .from(reports)
      .where(inArray(reports.targetId, [message, hello]));
    expect(copies.filter((copy) => copy.body !== null)).toEqual([]);
    expect(answer.map((report) => report.status)).toEqual([404, 404]);
  });

  it("a report of their couple filed while its last member's deletion runs: it waits, and no copy of its name or words stays", async () => {
    const couple = await forumCouple();
    const reporter = await forumCouple();
    await remove(couple.b.headers);
    const { deleted, answer } = await whileDeleting(couple.a, () =>
      moderation.report({ targetType: "couple", targetId: couple.coupleId, reason: "spam" }, reporter.a.headers),
    );
    expect(deleted.json).toEqual({ data: { couple: "deleted" } });
    const db = await getDb();
    const copies = await db.select({ title: reports.reportedTitle }).from(reports).where(eq(reports.targetId, couple.coupleId));
    expect(copies.filter((copy) => copy.title !== null)).toEqual([]);
    expect(answer.status).toBe(404);
  });

  it("the unread-message e-mails the due work writes while the deletion runs: they wait, and quote none of their words", async () => {
    const { ana, rui, leo, mia, conversationId, coupleIds } = await conversationOfTwo();
    const everyone = [ana, rui, leo, mia].map((who) => who.user.id);
    await send(conversationId, { user: leo.user, coupleId: coupleIds.leo }, "Dinner on Friday? Call 555-0104", everyone);
    const db = await getDb();
    const { deleted } = await whileDeleting({ userId: leo.user.id, headers: leo.headers }, () =>
      runDueWork(db, new Date(Date.now() + 16 * 60_000), 900),
    );
    expect(deleted.json).toEqual({ data: { couple: "kept-with-partner" } });
    const quoting = await db
      .select({ to: emailOutbox.to })
      .from(emailOutbox)
      .where(sql`strpos(${emailOutbox.text}, '555-0104') > 0 or ${leo.user.id}::uuid = any(${emailOutbox.aboutUserIds})`);
    expect(quoting).toEqual([]);
  });

  it("a partner's reaction to a post of theirs: it waits on the deletion's rows before the post's, holding nothing the deletion updates next", async () => {
    const couple = await forumCouple();
    const post = (await forum.create(postBody(), couple.a.headers)).json.data as { id: string };
    const { waited, answer } = await nextWhileWaiting(
      // What the deletion holds before it empties the person's posts' photos (lib/account/deletion.ts).
      (tx) => tx`select id from couples where id = ${couple.coupleId} for update`,
      () => forum.react("post", post.id, "heart", true, couple.b.headers),
      (tx) => tx`select id from forum_posts where id = ${post.id} for no key update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
  });

  it("a partner's reply to a post of theirs: it waits on the deletion's rows before the post's, holding nothing the deletion updates next", async () => {
    const couple = await forumCouple();
    const post = (await forum.create(postBody(), couple.a.headers)).json.data as { id: string };
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`select id from couples where id = ${couple.coupleId} for update`,
      () => forum.reply(post.id, { body: "Mind if I add a line?" }, couple.b.headers),
      (tx) => tx`select id from forum_posts where id = ${post.id} for no key update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(201);
  });

  it("another couple's reply to the person's post: it waits on the deletion's rows before the post's, holding nothing the deletion updates next", async () => {
    const couple = await forumCouple();
    const other = await forumCouple();
    const post = (await forum.create(postBody(), couple.a.headers)).json.data as { id: string };
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${couple.a.userId} for update`,
      () => forum.reply(post.id, { body: "Count us in" }, other.a.headers),
      (tx) => tx`select id from forum_posts where id = ${post.id} for no key update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(201);
  });

  it("another couple's reply to the person's post deleted: it waits on the deletion's rows before the post's, holding nothing the deletion updates next", async () => {
    const couple = await forumCouple();
    const other = await forumCouple();
    const post = (await forum.create(postBody(), couple.a.headers)).json.data as { id: string };
    const reply = (await forum.reply(post.id, { body: "Said too soon" }, other.a.headers)).json.data as { id: string };
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${couple.a.userId} for update`,
      () => forum.removeReply(reply.id, other.a.headers),
      (tx) => tx`select id from forum_posts where id = ${post.id} for no key update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
  });

  it("their own post deleted in another tab: it waits on the deletion's rows before the post's, holding nothing the deletion updates next", async () => {
    const couple = await forumCouple();
    const other = await forumCouple();
    const post = (await forum.create(postBody(), couple.a.headers)).json.data as { id: string };
    // A reaction's notice to the author: the delete withdraws it, telling the author's bell at its commit.
    expect((await forum.react("post", post.id, "heart", true, other.a.headers)).status).toBe(200);
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${couple.a.userId} for update`,
      () => forum.remove(post.id, couple.a.headers),
      (tx) => tx`select id from forum_posts where id = ${post.id} for no key update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
  });

  it("the author deleting a post or reply naming the person, who reacted to it: it waits on the deletion's rows before the post's or reply's", async () => {
    const couple = await forumCouple();
    const named = await forumCouple();
    const post = (await forum.create(postBody(mentioning(named)), couple.a.headers)).json.data as { id: string };
    // Their reaction leaves Top with the deletion, which updates the post (uncountTopReactionsOf); the removal withdraws their mention's notice, telling their bell at its commit.
    expect((await forum.react("post", post.id, "heart", true, named.a.headers)).status).toBe(200);
    const removal = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${named.a.userId} for update`,
      () => forum.remove(post.id, couple.a.headers),
      (tx) => tx`select id from forum_posts where id = ${post.id} for no key update nowait`,
    );
    expect(removal.waited).toBe(true);
    expect(removal.answer.status).toBe(200);
    const theirs = (await forum.create(postBody(), named.a.headers)).json.data as { id: string };
    expect((await forum.react("post", theirs.id, "heart", true, named.b.headers)).status).toBe(200);
    const reply = (await forum.reply(theirs.id, mentioning(named), couple.a.headers)).json.data as { id: string };
    const replyRemoval = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${named.b.userId} for update`,
      () => forum.removeReply(reply.id, couple.a.headers),
      (tx) => tx`select id from forum_posts where id = ${theirs.id} for no key update nowait`,
    );
    expect(replyRemoval.waited).toBe(true);
    expect(replyRemoval.answer.status).toBe(200);
  });

  it("their own edit naming a couple, in another tab: it waits on the deletion's rows before the post's or reply's, holding nothing the deletion updates next", async () => {
    const couple = await forumCouple();
    const named = await forumCouple();
    const other = await forumCouple();
    const post = (await forum.create(postBody(), couple.a.headers)).json.data as { id: string };
    const edit = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${couple.a.userId} for update`,
      () => forum.patch(post.id, mentioning(named), couple.a.headers),
      (tx) => tx`select id from forum_posts where id = ${post.id} for no key update nowait`,
    );
    expect(edit.waited).toBe(true);
    expect(edit.answer.status).toBe(200);
    const theirs = (await forum.create(postBody(), other.a.headers)).json.data as { id: string };
    const reply = (await forum.reply(theirs.id, { body: "First words" }, couple.a.headers)).json.data as { id: string };
    const replyEdit = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${couple.a.userId} for update`,
      () => forum.patchReply(reply.id, mentioning(named), couple.a.headers),
      (tx) => tx`select id from forum_replies where id = ${reply.id} for no key update nowait`,
    );
    expect(replyEdit.waited).toBe(true);
    expect(replyEdit.answer.status).toBe(200);
  });

  it("a moderator removing the person's post or reply: the decision waits on the deletion's rows before the post's or reply's", async () => {
    const couple = await forumCouple();
    const other = await forumCouple();
    const { headers: moderator } = await moderatorCouple();
    const post = (await forum.create(postBody(), couple.a.headers)).json.data as { id: string };
    const reply = (await forum.reply(post.id, { body: "Said too soon" }, couple.b.headers)).json.data as { id: string };
    // Reactions' notices to each author: the removal withdraws them, telling the authors' bells at its commit.
    expect((await forum.react("post", post.id, "heart", true, other.a.headers)).status).toBe(200);
    expect((await forum.react("reply", reply.id, "heart", true, other.a.headers)).status).toBe(200);
    const filed = async (targetType: string, targetId: string) =>
      (await moderation.report({ targetType, targetId, reason: "spam" }, other.a.headers)).json.data.id as string;
    const [ofPost, ofReply] = [await filed("post", post.id), await filed("reply", reply.id)];
    const removedPost = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${couple.a.userId} for update`,
      () => moderation.resolve(ofPost, "remove", moderator),
      (tx) => tx`select id from forum_posts where id = ${post.id} for no key update nowait`,
    );
    expect(removedPost.waited).toBe(true);
    expect(removedPost.answer.status).toBe(200);
    const removedReply = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${couple.b.userId} for update`,
      () => moderation.resolve(ofReply, "remove", moderator),
      (tx) => tx`select id from forum_replies where id = ${reply.id} for no key update nowait`,
    );
    expect(removedReply.waited).toBe(true);
    expect(removedReply.answer.status).toBe(200);
  });

  it("a moderator removing a reply to the person's post: the decision waits on the deletion's rows before the post's", async () => {
    const couple = await forumCouple();
    const other = await forumCouple();
    const { headers: moderator } = await moderatorCouple();
    const post = (await forum.create(postBody(), couple.a.headers)).json.data as { id: string };
    // Its reply notice to the post's author is withdrawn, telling their bell at the commit, after the post's count.
    const reply = (await forum.reply(post.id, { body: "Count us in" }, other.a.headers)).json.data as { id: string };
    const ofReply = (await moderation.report({ targetType: "reply", targetId: reply.id, reason: "spam" }, couple.b.headers)).json.data
      .id as string;
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${couple.a.userId} for update`,
      () => moderation.resolve(ofReply, "remove", moderator),
      (tx) => tx`select id from forum_posts where id = ${post.id} for no key update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
  });

  it("the third couple's report hiding the person's post: it waits on the deletion's rows before the post's", async () => {
    const couple = await forumCouple();
    const [one, two, three] = [await forumCouple(), await forumCouple(), await forumCouple()];
    const post = (await forum.create(postBody(), couple.a.headers)).json.data as { id: string };
    // A reaction's notice to the author: the hiding withdraws it, telling the author's bell at its commit.
    expect((await forum.react("post", post.id, "heart", true, one.a.headers)).status).toBe(200);
    const reportBy = (who: { a: { headers: Headers } }) =>
      moderation.report({ targetType: "post", targetId: post.id, reason: "spam" }, who.a.headers);
    for (const reporter of [one, two]) expect((await reportBy(reporter)).status).toBe(201);
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${couple.a.userId} for update`,
      () => reportBy(three),
      (tx) => tx`select id from forum_posts where id = ${post.id} for no key update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(201);
  });

  it("a moderator removing a plan of the person's couple: the decision waits on the deletion's rows before the plan's", async () => {
    const { one, two, conversationId } = await connected();
    const { headers: moderator } = await moderatorCouple();
    const made = await plan.propose(
      conversationId,
      { title: "Dinner", startsAt: daysAhead(20), placeId: PLACES.lisbon, venue: "Time Out Market" },
      one.a.headers,
    );
    const planId = made.json.data.id as string;
    const filed = (await moderation.report({ targetType: "plan", targetId: planId, reason: "spam" }, two.a.headers)).json.data.id as string;
    const { waited, answer } = await nextWhileWaiting(
      // What a deletion holds before it cancels its couple's plans (lib/account/deletion.ts).
      (tx) => tx`select id from users where id = ${one.b.userId} for update`,
      () => moderation.resolve(filed, "remove", moderator),
      (tx) => tx`select id from plans where id = ${planId} for no key update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
  });

  it("a moderator removing a message the person reacted to: the decision waits on the deletion's rows before the message's", async () => {
    const { one, two, conversationId } = await connected();
    const { headers: moderator } = await moderatorCouple();
    const message = (await talk.send(conversationId, { body: "Friday at eight?" }, two.a.headers)).json.data.id as string;
    // The removal takes the reactions with it; the deletion's own rows go with the person's (their foreign key).
    expect((await talk.react(message, "heart", true, one.b.headers)).status).toBe(200);
    const filed = (await moderation.report({ targetType: "message", targetId: message, reason: "spam" }, one.a.headers)).json.data
      .id as string;
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${one.b.userId} for update`,
      () => moderation.resolve(filed, "remove", moderator),
      (tx) => tx`select message_id from message_reactions where user_id = ${one.b.userId} for update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
  });

  it("a moderator delivering a hello the spam rule held from the person: the decision waits on the deletion's rows before the held hello's", async () => {
    const [sender, asked] = [await messagingCouple(), await messagingCouple()];
    const { headers: moderator } = await moderatorCouple();
    const db = await getDb();
    const [held] = await db
      .insert(heldRequests)
      .values({ fromCoupleId: sender.coupleId, toCoupleId: asked.coupleId, sentByUserId: sender.b.userId, note: "Drinks on Friday?" })
      .returning({ id: heldRequests.id });
    const { waited, answer } = await nextWhileWaiting(
      // What the deletion holds before it drops the hellos held from the person (lib/connections/service.ts eraseRequestNotes).
      (tx) => tx`select id from users where id = ${sender.b.userId} for update`,
      () => moderation.decideHeld(held!.id, "deliver", moderator),
      (tx) => tx`select id from held_requests where id = ${held!.id} for update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
  });

  it("the author deleting a message the person reacted to: it waits on the deletion's rows before the message's", async () => {
    const { one, two, conversationId } = await connected();
    const message = (await talk.send(conversationId, { body: "Friday at eight?" }, two.a.headers)).json.data.id as string;
    // The erasure takes the reactions with it; the deletion's own rows go with the person's (their foreign key).
    expect((await talk.react(message, "heart", true, one.b.headers)).status).toBe(200);
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${one.b.userId} for update`,
      () => talk.remove(message, two.a.headers),
      (tx) => tx`select message_id from message_reactions where user_id = ${one.b.userId} for update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
  });

  it("a reaction to the person's message: it waits on the deletion's rows before the message's", async () => {
    const { one, two, conversationId } = await connected();
    const message = (await talk.send(conversationId, { body: "Friday at eight?" }, one.b.headers)).json.data.id as string;
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${one.b.userId} for update`,
      () => talk.react(message, "heart", true, two.a.headers),
      // What the deletion erases next (eraseMember): the person's messages.
      (tx) => tx`select id from messages where id = ${message} for update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
  });

  it("an edit in a conversation of the person's couple as its last member goes: it waits on the deletion's rows before the conversation's", async () => {
    const { one, two, conversationId } = await connected();
    expect((await remove(one.b.headers)).status).toBe(200);
    const message = (await talk.send(conversationId, { body: "Friday at eight?" }, two.a.headers)).json.data.id as string;
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${one.a.userId} for update`,
      () => talk.edit(message, { body: "Friday at nine?" }, two.a.headers),
      // What the deletion ends next, no partner remaining (eraseMember's endConversations).
      (tx) => tx`select id from conversations where id = ${conversationId} for no key update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
  });

  it("another couple's reaction to the person's post: it waits on the deletion's rows before the post's, holding nothing the deletion updates next", async () => {
    const couple = await forumCouple();
    const other = await forumCouple();
    const post = (await forum.create(postBody(), couple.a.headers)).json.data as { id: string };
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${couple.a.userId} for update`,
      () => forum.react("post", post.id, "heart", true, other.a.headers),
      (tx) => tx`select id from forum_posts where id = ${post.id} for no key update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
  });
});

describe("DELETE /api/account beside another member's deletion", () => {
  it("two members of other couples who notified each other, deleting at one instant: neither holds its row while waiting on the other's", async () => {
    const [first, second] = [await forumCouple(), await forumCouple()];
    // Each told the other of a reaction: each deletion withdraws the notice it sent, telling the other's bell.
    for (const [actor, author] of [
      [first, second],
      [second, first],
    ]) {
      const post = (await forum.create(postBody(), author!.a.headers)).json.data as { id: string };
      expect((await forum.react("post", post.id, "heart", true, actor!.a.headers)).status).toBe(200);
    }
    // The member of the lower id is deleted first: their row held, then the bells of those they told.
    const [lower, higher] = [first.a, second.a].sort((x, y) => (x.userId < y.userId ? -1 : 1));
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${lower!.userId} for update`,
      () => remove(higher!.headers),
      (tx) => tx`select id from users where id = ${higher!.userId} for key share nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
  });

  it("a hello to the person's couple: it waits on the deletion's rows before it names the couple, holding nothing the deletion takes next", async () => {
    const sender = await messagingCouple();
    const asked = await messagingCouple();
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${asked.a.userId} for update`,
      () => connections.send({ coupleId: asked.coupleId, note: "Hello from us" }, sender.a.headers),
      // What the deletion takes next: its couple (lib/account/deletion.ts).
      (tx) => tx`select id from couples where id = ${asked.coupleId} for update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(201);
  });

  it("an acceptance of a hello the person's couple sent: it waits on the deletion's rows before the couples', holding nothing the deletion takes next", async () => {
    const sender = await messagingCouple();
    const asked = await messagingCouple();
    const hello = (await connections.send({ coupleId: asked.coupleId, note: "Hello from us" }, sender.a.headers)).json.data as {
      id: string;
    };
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${sender.b.userId} for update`,
      () => connections.accept(hello.id, asked.a.headers),
      (tx) => tx`select id from couples where id = ${sender.coupleId} for update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
  });

  it("a message to the person's couple, its last partner: it waits on the deletion's rows before the conversation's, holding nothing the deletion ends next", async () => {
    const { one, two, conversationId } = await connected();
    expect((await remove(two.b.headers)).status).toBe(200);
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${two.a.userId} for update`,
      () => talk.send(conversationId, { body: "Still on for Friday?" }, one.a.headers),
      // What the deletion ends next, no partner of the couple left (lib/messages/service.ts eraseMember).
      (tx) => tx`select id from conversations where id = ${conversationId} for no key update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(201);
  });

  it("a conversation read beside its other couple's last partner's deletion: it waits on the deletion's rows before the conversation's; a mute takes nothing the deletion holds", async () => {
    const { one, two, conversationId } = await connected();
    expect((await remove(two.b.headers)).status).toBe(200);
    const message = (await talk.send(conversationId, { body: "Still on for Friday?" }, two.a.headers)).json.data.id as string;
    for (const [write, tells] of [
      // The read tells the four at its commit ('Seen by'); a mute tells nobody and writes only the muter's own row.
      [() => talk.read(conversationId, { upTo: message }, one.a.headers), true],
      [() => talk.mute(conversationId, true, one.a.headers), false],
      [() => talk.mute(conversationId, false, one.a.headers), false],
    ] as const) {
      const { waited, answer } = await nextWhileWaiting(
        (tx) => tx`select id from users where id = ${two.a.userId} for update`,
        write,
        // What the deletion ends next, no partner of the couple left (eraseMember's endConversations).
        (tx) => tx`select id from conversations where id = ${conversationId} for no key update nowait`,
      );
      expect(waited).toBe(tells);
      expect(answer.status).toBe(200);
    }
  });

  it("an edit rewording the notices of the couples a post or reply mentions: it waits on their deletion's rows before the post's or reply's", async () => {
    const couple = await forumCouple();
    const named = await forumCouple();
    const post = (await forum.create(postBody(mentioning(named)), couple.a.headers)).json.data as { id: string };
    // Their reaction leaves Top with their deletion, which updates the post next (uncountTopReactionsOf).
    expect((await forum.react("post", post.id, "heart", true, named.a.headers)).status).toBe(200);
    const edit = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${named.a.userId} for update`,
      // A new title rewords the mention's notice, telling their bell at the commit.
      () => forum.patch(post.id, { title: "Sintra, again" }, couple.a.headers),
      (tx) => tx`select id from forum_posts where id = ${post.id} for no key update nowait`,
    );
    expect(edit.waited).toBe(true);
    expect(edit.answer.status).toBe(200);
    const reply = (await forum.reply(post.id, mentioning(named), couple.b.headers)).json.data as { id: string };
    const replyEdit = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${named.b.userId} for update`,
      () => forum.patchReply(reply.id, { body: "Other words" }, couple.b.headers),
      // What their deletion takes last: their notices go with their row.
      (tx) => tx`select id from notifications where user_id = ${named.b.userId} for update nowait`,
    );
    expect(replyEdit.waited).toBe(true);
    expect(replyEdit.answer.status).toBe(200);
  });

  it("an edit or a reply newly mentioning a couple whose partner reacted to the post: it waits on their deletion's rows before the post's", async () => {
    const couple = await forumCouple();
    const named = await forumCouple();
    const post = (await forum.create(postBody(), couple.a.headers)).json.data as { id: string };
    // Their reaction leaves Top with their deletion, which updates the post next (uncountTopReactionsOf).
    expect((await forum.react("post", post.id, "heart", true, named.a.headers)).status).toBe(200);
    for (const [write, status] of [
      // Each tells them of its mention: a notice, whose foreign key key-shares their row.
      [() => forum.patch(post.id, mentioning(named), couple.a.headers), 200],
      [() => forum.reply(post.id, mentioning(named), couple.b.headers), 201],
    ] as const) {
      const { waited, answer } = await nextWhileWaiting(
        (tx) => tx`select id from users where id = ${named.a.userId} for update`,
        write,
        (tx) => tx`select id from forum_posts where id = ${post.id} for no key update nowait`,
      );
      expect(waited).toBe(true);
      expect(answer.status).toBe(status);
    }
  });

  it("a post, or a reply's edit, mentioning a couple anew: it waits on their partner's deletion before it names the couple", async () => {
    const couple = await forumCouple();
    const named = await forumCouple();
    const post = (await forum.create(postBody(), couple.a.headers)).json.data as { id: string };
    const reply = (await forum.reply(post.id, { body: "First words" }, couple.b.headers)).json.data as { id: string };
    for (const [write, status] of [
      // Each names their couple (a mention's foreign key), then tells its partners (a notice's).
      [() => forum.create(postBody(mentioning(named)), couple.a.headers), 201],
      [() => forum.patchReply(reply.id, mentioning(named), couple.b.headers), 200],
    ] as const) {
      const { waited, answer } = await nextWhileWaiting(
        (tx) => tx`select id from users where id = ${named.a.userId} for update`,
        write,
        // What the deletion takes next: its couple (lib/account/deletion.ts).
        (tx) => tx`select id from couples where id = ${named.coupleId} for update nowait`,
      );
      expect(waited).toBe(true);
      expect(answer.status).toBe(status);
    }
  });

  it("a notice of theirs on its way to someone of a lower id as it starts: the deletion holds that person before its own row, not at its commit", async () => {
    const [x, y] = [await forumCouple(), await forumCouple()];
    const [lower, person] = [x.a, y.a].sort((one, other) => (one.userId < other.userId ? -1 : 1));
    const direct = postgres(process.env.DATABASE_URL!, { max: 3, onnotice: () => {} });
    try {
      // A reaction of theirs in another tab, its transaction still open: a notice to the lower one naming them (its foreign keys key-share both rows).
      const notice = await direct.reserve();
      await notice`begin`;
      await notice`insert into notifications (user_id, type, title, message, actor_user_id) values (${lower!.userId}, 'reaction', 'Held', 'Held', ${person!.userId})`;
      let answered = false;
      const deleting = remove(person!.headers).finally(() => (answered = true));
      await lockWaits(1, () => answered);
      // The lower one's own deletion: their row asked for while the notice holds it, so it is theirs once the notice commits.
      const theirs = await direct.reserve();
      await theirs`begin`;
      const [backend] = await theirs`select pg_backend_pid() as pid`;
      const holding = theirs`select id from users where id = ${lower!.userId} for update`.execute();
      await lockWaits(2, () => answered);
      await notice`commit`;
      notice.release();
      await holding;
      // The person's deletion goes on, until it waits on the lower one's row.
      for (let tries = 0; tries < 400 && !answered; tries++) {
        const [row] = await direct`select count(*)::int as n from pg_stat_activity where ${backend!.pid}::int = any(pg_blocking_pids(pid))`;
        if (row!.n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      // What the lower one's deletion takes next, had they notified the person too. NOWAIT: it fails if the person's deletion holds their row while it waits.
      const refused = await theirs`select id from users where id = ${person!.userId} for key share nowait`.then(
        () => null,
        (error: unknown) => String(error),
      );
      await theirs`commit`;
      theirs.release();
      expect((await deleting).status).toBe(200);
      expect(refused).toBeNull();
    } finally {
      await direct.end({ timeout: 1 });
    }
  });
});

describe.skipIf(!onPostgres())("DELETE /api/account of two connected members at one instant", () => {
  // Members of either couple who never notified each other: the one of the higher id is deleted while the lower one's deletion holds their row.
  const lowerFirst = <T extends { userId: string }>(x: T, y: T) => (x.userId < y.userId ? [x, y] : [y, x]);

  it("with a plan to come between their couples: neither holds the plan while waiting on the other's row", async () => {
    const { one, two, conversationId } = await connected();
    const made = await plan.propose(
      conversationId,
      { title: "Dinner", startsAt: daysAhead(20), placeId: PLACES.lisbon, venue: "Time Out Market" },
      one.a.headers,
    );
    const planId = made.json.data.id as string;
    const [lower, higher] = lowerFirst(one.b, two.b);
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${lower!.userId} for update`,
      () => remove(higher!.headers),
      // What the lower one's deletion cancels next (cancelPlansOfCouple).
      (tx) => tx`select id from plans where id = ${planId} for no key update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
  });

  it("with messages between their couples: neither holds its row while waiting on the other's", async () => {
    const { one, two, conversationId } = await connected();
    // Muted: neither is told of the other's message, so neither deletion finds the other among those it notified.
    for (const who of [one.b, two.b]) expect((await talk.mute(conversationId, true, who.headers)).status).toBe(200);
    for (const who of [one.b, two.b]) expect((await talk.send(conversationId, { body: "Friday at eight?" }, who.headers)).status).toBe(201);
    const [lower, higher] = lowerFirst(one.b, two.b);
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${lower!.userId} for update`,
      () => remove(higher!.headers),
      // The lower one's deletion tells the four of its erased messages (eraseMember's live rows).
      (tx) => tx`select id from users where id = ${higher!.userId} for key share nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
  });
});
