import { randomBytes } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import webpush from "web-push";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETE as removeRoute, GET as listRoute, POST as subscribeRoute } from "@/app/api/push/subscriptions/route";
import { POST as resolveRoute } from "@/app/api/moderation/reports/[id]/[action]/route";
import { POST as reportRoute } from "@/app/api/reports/route";
import { GET as getPushSettingsRoute, PUT as pushSettingsRoute } from "@/app/api/push/settings/route";
import { getDb } from "@/db/client";
import { couples, emailOutbox, notificationPreferences, plans, pushOutbox, pushSubscriptions, users } from "@/db/schema";
import { transaction } from "@/db/transaction";
import { revokeSession } from "@/lib/auth/sessions";
import { deliverDuePushes, MAX_ATTEMPTS, PUSH_TTL_S } from "@/lib/notifications/push/deliver";
import { endpointAllowed } from "@/lib/notifications/push/endpoint";
import {
  enqueuePushes,
  PUSH_ROWS_PER_INSERT,
  pushesBetween,
  pushesOfConversations,
  pushesWithOthers,
} from "@/lib/notifications/push/outbox";
import { MAX_DEVICES, SUBSCRIBE_LIMIT } from "@/lib/notifications/push/limits";
import { pushPromptDue } from "@/lib/notifications/push/subscriptions";
import { unreadCount } from "@/lib/notifications/queries";
import { createNotifications } from "@/lib/notifications/service";
import { sendPlanReminders } from "@/lib/plans/reminders";
import { deleteAccount } from "@/lib/account/deletion";
import { exportAccount } from "@/lib/account/export";
import { call, PASSWORD } from "../support/api";
import { forum, forumCouple, postBody, type Person } from "../support/forum";
import { block, connected, connections, messagingCouple, talk } from "../support/messages";
import { moderatorCouple, sanctions } from "../support/moderation";
import { daysAhead, PLACES, plan } from "../support/plans";
import { helloPush, startPushService } from "../support/push-service";
import { queryPlan, wholeScans } from "../support/query-plan";

const vapid = webpush.generateVAPIDKeys();
process.env.VAPID_PUBLIC_KEY = vapid.publicKey;
process.env.VAPID_PRIVATE_KEY = vapid.privateKey;
process.env.VAPID_SUBJECT = "mailto:push@example.com";
process.env.PUSH_ALLOW_LOCAL_ENDPOINTS = "true";

const CHROME_ON_ANDROID =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

let service: Awaited<ReturnType<typeof startPushService>>;
beforeAll(async () => {
  service = await startPushService(vapid.publicKey);
});
afterAll(() => service.close());

/** Turns notifications on for one of the person's devices, as the settings page does. */
async function deviceOf(person: Person, answers: number[] = []) {
  const device = service.newDevice(answers);
  const answer = await call(subscribeRoute, "POST", "/api/push/subscriptions", {
    body: { endpoint: device.endpoint, keys: device.keys },
    headers: { ...person.headers, "user-agent": CHROME_ON_ANDROID },
  });
  expect(answer.status).toBe(201);
  return device;
}

const deliver = async (now = new Date()) => deliverDuePushes(await getDb(), { now, transport: service.transport });
const to = (device: { id: string }) => service.received.filter((push) => push.device === device.id);
const topicOf = (conversationId: string) => conversationId.replaceAll("-", "");

describe("Web Push: what is sent", () => {
  it("sends a message once per device, after the commit: VAPID token checked, payload decrypted, TTL a day, urgent, with the conversation's topic", async () => {
    const { one, two, conversationId } = await connected();
    const phone = await deviceOf(two.a);
    const laptop = await deviceOf(two.a);
    const authorsPartner = await deviceOf(one.b);
    expect((await talk.send(conversationId, { body: "Dinner on Friday?" }, one.a.headers)).status).toBe(201);
    // Nothing leaves inside the request: the sender runs after it.
    expect(to(phone)).toEqual([]);
    const report = await deliver();
    expect(report).toMatchObject({ sent: 2 });
    for (const device of [phone, laptop]) {
      const [push] = to(device);
      expect(push).toMatchObject({
        ttl: PUSH_TTL_S,
        urgency: "high",
        topic: topicOf(conversationId),
        claims: { aud: service.origin, sub: "mailto:push@example.com" },
        payload: {
          title: `New messages from ${one.name}`,
          body: `${one.a.firstName} of ${one.name} sent a message`,
          url: `/messages/${conversationId}`,
          conversationId,
        },
      });
      expect(push!.payload.unread).toBeGreaterThanOrEqual(1);
      expect(push!.claims.exp * 1000).toBeGreaterThan(Date.now());
      expect(push!.claims.exp * 1000).toBeLessThanOrEqual(Date.now() + 24 * 3600 * 1000);
      // No words of the message unless the person asked for previews.
      expect(JSON.stringify(push!.payload)).not.toContain("Friday");
    }
    expect(to(authorsPartner)).toEqual([]);
    expect(service.rejected).toEqual([]);
    expect((await deliver()).sent).toBe(0);
  });

  it("collapses a conversation's messages into one push per device: '3 new messages from …'", async () => {
    const { one, two, conversationId } = await connected();
    const phone = await deviceOf(two.b);
    for (const body of ["One", "Two", "Three"]) await talk.send(conversationId, { body }, one.a.headers);
    const db = await getDb();
    expect(
      await db
        .select()
        .from(pushOutbox)
        .where(eq(pushOutbox.topic, topicOf(conversationId))),
    ).toHaveLength(1);
    await deliver();
    expect(to(phone).map((push) => push.payload.body)).toEqual([`3 new messages from ${one.name}`]);
    // The next one after it left still says how many wait unread, under the same topic (it replaces the shown one).
    await talk.send(conversationId, { body: "Four" }, one.b.headers);
    await deliver();
    expect(to(phone).map((push) => [push.payload.body, push.topic])).toEqual([
      [`3 new messages from ${one.name}`, topicOf(conversationId)],
      [`4 new messages from ${one.name}`, topicOf(conversationId)],
    ]);
  });

  it("counts the messages waiting as the badges do, up to 100: '99+ new messages from …' past 99", async () => {
    const { one, two, conversationId } = await connected();
    const phone = await deviceOf(two.b);
    const db = await getDb();
    // A long burst while two.b was away (written as sent, past the minute's limit).
    await db.execute(sql`insert into messages (conversation_id, author_user_id, author_couple_id, body)
      select ${conversationId}::uuid, ${one.a.userId}::uuid, ${one.coupleId}::uuid, 'Earlier ' || g from generate_series(1, 150) g`);
    await talk.send(conversationId, { body: "Still there?" }, one.a.headers);
    await deliver();
    expect(to(phone).map((push) => push.payload.body)).toEqual([`99+ new messages from ${one.name}`]);
  });

  it("writes a list's pushes at once: each person's devices their own, a conversation's notices in the list one push that counts them", async () => {
    const { one, two, conversationId } = await connected();
    const [phone, laptop] = [await deviceOf(two.a), await deviceOf(two.a)];
    // A message's push already waits on two.a's devices: the list's two add to it.
    expect((await talk.send(conversationId, { body: "Dinner on Friday?" }, one.a.headers)).status).toBe(201);
    const partnersPhone = await deviceOf(two.b);
    const message = (title: string) => ({
      userId: two.a.userId,
      type: "message" as const,
      title,
      message: `${one.a.firstName} of ${one.name} sent a message`,
      conversationId,
      actorCoupleId: one.coupleId,
    });
    const db = await getDb();
    await transaction(db, (tx) =>
      createNotifications(tx, [
        message("First"),
        { userId: two.b.userId, type: "plan_reminder", title: "Coming up: Dinner", message: "Tomorrow at 19:30", conversationId },
        message("Second"),
      ]),
    );
    const waiting = await db
      .select({ endpoint: pushSubscriptions.endpoint, type: pushOutbox.type, title: pushOutbox.title, count: pushOutbox.count })
      .from(pushOutbox)
      .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, pushOutbox.subscriptionId))
      .where(eq(pushOutbox.conversationId, conversationId));
    expect(waiting.map((row) => [row.endpoint, row.type, row.title, row.count]).sort()).toEqual(
      [
        [phone.endpoint, "message", "Second", 3],
        [laptop.endpoint, "message", "Second", 3],
        [partnersPhone.endpoint, "plan_reminder", "Coming up: Dinner", 1],
      ].sort(),
    );
    await deliver();
    // One push a device for the three notices, with the latest's words (its body counts the messages waiting unread, as above).
    for (const device of [phone, laptop]) expect(to(device).map((push) => push.payload.title)).toEqual(["Second"]);
    // (Previews off, the default: a plan's push names no plan.)
    expect(to(partnersPhone).map((push) => push.payload.title)).toEqual(["Your plan is coming up on Two of Us"]);
  });

  it("shows the message's first line only with 'Show message previews' on", async () => {
    const { one, two, conversationId } = await connected();
    const phone = await deviceOf(two.a);
    expect(
      (await call(pushSettingsRoute, "PUT", "/api/push/settings", { body: { showPreviews: true }, headers: two.a.headers })).json.data,
    ).toEqual({
      showPreviews: true,
      promptDone: false,
    });
    await talk.send(conversationId, { body: "Dinner on Friday?\nWe found a place." }, one.a.headers);
    await deliver();
    expect(to(phone)[0]!.payload.body).toBe(`${one.a.firstName}: Dinner on Friday?`);
  });

  it("cuts a long preview between characters, never through one: an emoji at the cut is kept whole, not half of it", async () => {
    const { one, two, conversationId } = await connected();
    const phone = await deviceOf(two.a);
    await call(pushSettingsRoute, "PUT", "/api/push/settings", { body: { showPreviews: true }, headers: two.a.headers });
    // 118 letters, then emoji (two UTF-16 units each): the 119-unit cut fell inside the first one.
    await talk.send(conversationId, { body: `${"a".repeat(118)}${"😀".repeat(3)}` }, one.a.headers);
    await deliver();
    const body = to(phone)[0]!.payload.body as string;
    expect(body).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(body).toBe(`${one.a.firstName}: ${"a".repeat(118)}😀…`);
  });

  it("keeps a plan's what, when and where and a cancelling reason off the lock screen unless previews are on", async () => {
    const { one, two, conversationId } = await connected();
    const phone = await deviceOf(two.a);
    const partnersPhone = await deviceOf(two.b);
    expect(
      (await call(pushSettingsRoute, "PUT", "/api/push/settings", { body: { showPreviews: true }, headers: two.b.headers })).status,
    ).toBe(200);
    const proposed = await plan.propose(
      conversationId,
      { title: "Dinner at Ana's", startsAt: daysAhead(9), placeId: PLACES.lisbon },
      one.a.headers,
    );
    expect((await plan.cancel(proposed.json.data.id, { reason: "Rui has the flu" }, one.b.headers)).status).toBe(200);
    await deliver();
    // (The two leave side by side: in either order.)
    expect(
      to(phone)
        .map((push) => [push.payload.title, push.payload.body])
        .sort(),
    ).toEqual([
      ["A plan to meet on Two of Us", ""],
      ["A plan was cancelled on Two of Us", ""],
    ]);
    expect(JSON.stringify(to(phone))).not.toMatch(/Dinner|Lisbon|flu/);
    const withPreviews = to(partnersPhone).map((push) => `${push.payload.title} ${push.payload.body}`);
    expect(withPreviews).toHaveLength(2);
    expect(withPreviews.find((text) => text.startsWith("New plan"))).toContain("Dinner at Ana's");
    expect(withPreviews.find((text) => !text.startsWith("New plan"))).toContain("Rui has the flu");
  });

  it("sends nothing for a conversation read before the push left (it was open on a screen)", async () => {
    const { one, two, conversationId } = await connected();
    const phone = await deviceOf(two.a);
    const sent = await talk.send(conversationId, { body: "Are you there?" }, one.a.headers);
    await talk.read(conversationId, { upTo: sent.json.data.id }, two.a.headers);
    expect(await deliver()).toMatchObject({ sent: 0, dropped: 1 });
    expect(to(phone)).toEqual([]);
  });

  it("sends nothing for a conversation read before the push left, when its reader keeps messages out of the app", async () => {
    const { one, two, conversationId } = await connected();
    const db = await getDb();
    await db.insert(notificationPreferences).values({ userId: two.a.userId, type: "message", inApp: false, email: true, push: true });
    const phone = await deviceOf(two.a);
    const sent = await talk.send(conversationId, { body: "Are you there?" }, one.a.headers);
    await talk.read(conversationId, { upTo: sent.json.data.id }, two.a.headers);
    expect(await deliver()).toMatchObject({ sent: 0, dropped: 1 });
    expect(to(phone)).toEqual([]);
  });

  it("sends nothing for a conversation its reader muted while the push waited for its retry", async () => {
    const { one, two, conversationId } = await connected();
    const phone = await deviceOf(two.a, [503]);
    await talk.send(conversationId, { body: "Are you there?" }, one.a.headers);
    const start = Date.now();
    expect(await deliver(new Date(start))).toMatchObject({ sent: 0, retried: 1 });
    expect((await talk.mute(conversationId, true, two.a.headers)).status).toBe(200);
    expect(await deliver(new Date(start + 31_000))).toMatchObject({ sent: 0, dropped: 1 });
    expect(to(phone)).toEqual([]);
  });

  it("sends nothing of a plan in a conversation its person muted while the push waited for its retry, as for a message", async () => {
    const { one, two, conversationId } = await connected();
    const phone = await deviceOf(two.a, [503]);
    const proposed = await plan.propose(
      conversationId,
      { title: "Picnic", startsAt: daysAhead(12), placeId: PLACES.lisbon },
      one.a.headers,
    );
    expect(proposed.status).toBe(201);
    const start = Date.now();
    expect(await deliver(new Date(start))).toMatchObject({ sent: 0, retried: 1 });
    expect((await talk.mute(conversationId, true, two.a.headers)).status).toBe(200);
    expect(await deliver(new Date(start + 31_000))).toMatchObject({ sent: 0, dropped: 1 });
    expect(to(phone)).toEqual([]);
  });

  it("sends nothing of a type its person turned push off for while it waited for its retry", async () => {
    const { one, two, conversationId } = await connected();
    const phone = await deviceOf(two.a, [503]);
    await talk.send(conversationId, { body: "Are you there?" }, one.a.headers);
    const start = Date.now();
    expect(await deliver(new Date(start))).toMatchObject({ sent: 0, retried: 1 });
    const db = await getDb();
    await db.insert(notificationPreferences).values({ userId: two.a.userId, type: "message", inApp: true, email: true, push: false });
    expect(await deliver(new Date(start + 31_000))).toMatchObject({ sent: 0, dropped: 1 });
    expect(to(phone)).toEqual([]);
  });

  it("erases with a block the pushes waiting between the two couples, both ways, as the bell hides them; a third couple's stay", async () => {
    const { one, two, conversationId } = await connected();
    const third = await messagingCouple();
    const theirPhone = await deviceOf(two.a);
    const ourPhone = await deviceOf(one.a);
    await talk.send(conversationId, { body: "Still there?" }, one.a.headers);
    await talk.send(conversationId, { body: "Who is asking?" }, two.a.headers);
    expect((await connections.send({ coupleId: two.coupleId, note: "Hello from us" }, third.a.headers)).status).toBe(201);
    const db = await getDb();
    const waiting = async () =>
      (
        await db
          .select({ endpoint: pushSubscriptions.endpoint, actorCoupleId: pushOutbox.actorCoupleId })
          .from(pushOutbox)
          .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, pushOutbox.subscriptionId))
          .where(inArray(pushSubscriptions.endpoint, [theirPhone.endpoint, ourPhone.endpoint]))
      ).map((row) => `${row.endpoint === theirPhone.endpoint ? "theirs" : "ours"} from ${row.actorCoupleId}`);
    expect((await waiting()).sort()).toEqual(
      [`theirs from ${one.coupleId}`, `theirs from ${third.coupleId}`, `ours from ${two.coupleId}`].sort(),
    );
    expect((await block(one.coupleId, two.b.headers)).status).toBe(200);
    expect(await waiting()).toEqual([`theirs from ${third.coupleId}`]);
    expect(await deliver()).toMatchObject({ sent: 1, dropped: 0 });
    expect(to(theirPhone)).toMatchObject([{ payload: { url: "/messages?tab=requests" } }]);
    expect(to(ourPhone)).toEqual([]);
  });

  it("sends nothing more of a batch once a block made while it was being sent erased its pushes: each is read again as it leaves", async () => {
    const { one, two, conversationId } = await connected();
    const devices = [];
    for (let n = 0; n < 5; n++) devices.push(await deviceOf(two.a), await deviceOf(two.b));
    await talk.send(conversationId, { body: "Still there?" }, one.a.headers);
    // The first push's send meets the block: the sends already past their read (up to 8 at once) finish after it, the rest
    // have not left (how many were past it depends on the machine: at least the first, never more than 8).
    let blocked: Promise<unknown> | undefined;
    const transport: typeof service.transport = async (request) => {
      blocked ??= block(one.coupleId, two.b.headers);
      await blocked;
      return service.transport(request);
    };
    const report = await deliverDuePushes(await getDb(), { transport });
    expect((await blocked)!).toMatchObject({ status: 200 });
    expect(report.sent + report.dropped).toBe(10);
    expect(report.sent).toBeGreaterThanOrEqual(1);
    expect(report.dropped).toBeGreaterThanOrEqual(2);
    expect(devices.flatMap((device) => to(device))).toHaveLength(report.sent);
  });

  it("erases with a block a plan's reminder waiting for the two couples (no one of them acted: it names no actor), and its e-mail", async () => {
    const { one, two, conversationId } = await connected();
    const phone = await deviceOf(two.a, [503]);
    const proposed = await plan.propose(
      conversationId,
      { title: "Tapas before the block", startsAt: daysAhead(9), placeId: PLACES.lisbon },
      one.a.headers,
    );
    expect(proposed.status).toBe(201);
    const id = proposed.json.data.id as string;
    expect((await plan.answer(id, "going", two.a.headers)).status).toBe(200);
    const db = await getDb();
    // The proposal's push leaves first (after its one refusal), so only the reminder waits below.
    const start = Date.now();
    await deliver(new Date(start));
    await deliver(new Date(start + 31_000));
    const [row] = await db.select({ startsAt: plans.startsAt }).from(plans).where(eq(plans.id, id));
    await transaction(db, (tx) => sendPlanReminders(tx, new Date(row!.startsAt.getTime() - 3_600_000)));
    const reminderPushes = () =>
      db
        .select({ id: pushOutbox.id })
        .from(pushOutbox)
        .where(and(eq(pushOutbox.conversationId, conversationId), eq(pushOutbox.type, "plan_reminder")));
    expect(await reminderPushes()).toHaveLength(1);
    expect((await block(two.coupleId, one.b.headers)).status).toBe(200);
    expect(await reminderPushes()).toEqual([]);
    const mail = await db
      .select({ text: emailOutbox.text, retryAt: emailOutbox.retryAt })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.conversationId, conversationId), eq(emailOutbox.notificationType, "plan_reminder")));
    expect(mail).toEqual([{ text: "", retryAt: null }]);
    await deliver(new Date(start + 120_000));
    expect(to(phone).map((push) => push.payload.title)).not.toContain("Coming up: Tapas before the block");
  });

  it("erases with a suspension a plan's reminder waiting for the couple it meets, which names no actor; the cancelling notice still goes", async () => {
    const { one, two, conversationId } = await connected();
    await deviceOf(two.a, [503]);
    const proposed = await plan.propose(conversationId, { title: "Brunch", startsAt: daysAhead(9), placeId: PLACES.lisbon }, two.b.headers);
    const id = proposed.json.data.id as string;
    expect((await plan.answer(id, "going", two.a.headers)).status).toBe(200);
    const db = await getDb();
    const [row] = await db.select({ startsAt: plans.startsAt }).from(plans).where(eq(plans.id, id));
    await transaction(db, (tx) => sendPlanReminders(tx, new Date(row!.startsAt.getTime() - 3_600_000)));
    const waiting = async () =>
      (await db.select({ type: pushOutbox.type }).from(pushOutbox).where(eq(pushOutbox.conversationId, conversationId))).map((p) => p.type);
    expect(await waiting()).toContain("plan_reminder");
    const { headers: moderator } = await moderatorCouple();
    expect((await sanctions.act(one.coupleId, { kind: "suspend", reason: "hate" }, moderator)).status).toBe(201);
    expect(await waiting()).not.toContain("plan_reminder");
    expect(await waiting()).toContain("plan_cancelled");
    // Out of the later tests' deliveries.
    await deliver(new Date(Date.now() + 3_600_000));
  });

  it("finds the pushes between two couples a block erases by the actor couple's and the devices' indexes", async () => {
    const db = await getDb();
    const { one, two, conversationId } = await connected();
    const plan = await queryPlan(
      db
        .delete(pushOutbox)
        .where(pushesBetween(db, one.coupleId, two.coupleId))
        .getSQL(),
    );
    expect(plan).toContain("push_outbox_actor_couple_idx");
    expect(wholeScans(plan)).toEqual([]);
    const ofConversation = await queryPlan(
      db
        .delete(pushOutbox)
        .where(pushesOfConversations(db, [one.a.userId, one.b.userId, two.a.userId, two.b.userId], [conversationId]))
        .getSQL(),
    );
    expect(ofConversation).toContain("push_outbox_subscription_idx");
    expect(wholeScans(ofConversation)).toEqual([]);
  });

  it("drops a push waiting for its retry once its couple is suspended, as its e-mail is withheld; the couple's own partner still gets theirs", async () => {
    const { one, two, conversationId } = await connected();
    const phone = await deviceOf(two.a, [503]);
    const partnersPhone = await deviceOf(one.b, [503]);
    const proposed = await plan.propose(
      conversationId,
      { title: "Dinner", startsAt: daysAhead(15), placeId: PLACES.lisbon },
      one.a.headers,
    );
    expect(proposed.status).toBe(201);
    const start = Date.now();
    expect(await deliver(new Date(start))).toMatchObject({ sent: 0, retried: 2 });
    const db = await getDb();
    await db.update(couples).set({ status: "suspended" }).where(eq(couples.id, one.coupleId));
    expect(await deliver(new Date(start + 31_000))).toMatchObject({ sent: 1, dropped: 1 });
    expect(to(phone)).toEqual([]);
    expect(to(partnersPhone)).toHaveLength(1);
  });

  it("erases with a suspension the pushes waiting between the couple and others, both ways; its own partner's and a third couple's stay", async () => {
    const { one, two, conversationId } = await connected();
    const third = await messagingCouple();
    const { headers: moderator } = await moderatorCouple();
    const theirPhone = await deviceOf(two.a);
    const ourPhone = await deviceOf(one.a);
    const partnersPhone = await deviceOf(one.b);
    await talk.send(conversationId, { body: "Still there?" }, one.a.headers);
    await talk.send(conversationId, { body: "Who is asking?" }, two.a.headers);
    expect((await connections.send({ coupleId: two.coupleId, note: "Hello from us" }, third.a.headers)).status).toBe(201);
    // A plan one partner proposes tells the other: the couple's own word to its own.
    const proposed = { title: "Dinner", startsAt: daysAhead(15), placeId: PLACES.lisbon };
    expect((await plan.propose(conversationId, proposed, one.a.headers)).status).toBe(201);
    const db = await getDb();
    const names = new Map([
      [theirPhone.endpoint, "theirs"],
      [ourPhone.endpoint, "ours"],
      [partnersPhone.endpoint, "partner's"],
    ]);
    const waiting = async () =>
      (
        await db
          .select({ endpoint: pushSubscriptions.endpoint, actorCoupleId: pushOutbox.actorCoupleId })
          .from(pushOutbox)
          .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, pushOutbox.subscriptionId))
          .where(inArray(pushSubscriptions.endpoint, [...names.keys()]))
      )
        .map((row) => `${names.get(row.endpoint)} from ${row.actorCoupleId}`)
        .sort();
    expect(await waiting()).toContain(`theirs from ${one.coupleId}`);
    expect(await waiting()).toContain(`ours from ${two.coupleId}`);
    expect(await waiting()).toContain(`partner's from ${one.coupleId}`);
    expect((await sanctions.act(one.coupleId, { kind: "suspend", reason: "spam" }, moderator)).status).toBe(201);
    // Left: the partner's own plan notice, the third couple's hello, and the app's word that the plan was cancelled (no actor).
    expect(await waiting()).toEqual([`partner's from ${one.coupleId}`, `theirs from ${third.coupleId}`, "theirs from null"].sort());
    // Sent: the other couple's two; the suspended partner was signed out everywhere, so their device gets nothing.
    await deliver();
    expect(to(theirPhone)).toHaveLength(2);
    expect(to(partnersPhone)).toEqual([]);
  });

  it("finds the pushes a suspension erases by the actor couple's and the device's indexes", async () => {
    const db = await getDb();
    const { one } = await connected();
    const { fromCouple, toCouple } = pushesWithOthers(db, one.coupleId);
    const plans = [
      await queryPlan(db.delete(pushOutbox).where(fromCouple).getSQL()),
      await queryPlan(db.delete(pushOutbox).where(toCouple).getSQL()),
    ];
    expect(plans[0]).toContain("push_outbox_actor_couple_idx");
    expect(plans[1]).toContain("push_outbox_subscription_idx");
    for (const plan of plans) expect(wholeScans(plan)).toEqual([]);
  });

  it("sets the app's badge to the bell's count: nothing from a couple blocked either way", async () => {
    const { one, two, conversationId } = await connected();
    const third = await messagingCouple();
    const phone = await deviceOf(two.a);
    await talk.send(conversationId, { body: "Still there?" }, one.a.headers);
    expect((await block(one.coupleId, two.b.headers)).status).toBe(200);
    expect((await connections.send({ coupleId: two.coupleId, note: "Hello from us" }, third.a.headers)).status).toBe(201);
    await deliver();
    // The message's push is dropped with the block; the hello's counts only the hello, as the bell does.
    expect(to(phone).map((push) => push.payload.unread)).toEqual([1]);
    expect(await unreadCount(await getDb(), two.a.userId)).toBe(1);
  });

  it("pushes hello requests and acceptances at normal urgency, each its own", async () => {
    const one = await messagingCouple();
    const two = await messagingCouple();
    const theirPhone = await deviceOf(two.a);
    const ourPhone = await deviceOf(one.b);
    const sent = await connections.send({ coupleId: two.coupleId, note: "Hello from us" }, one.a.headers);
    await deliver();
    expect(to(theirPhone)).toMatchObject([{ urgency: "normal", topic: null, payload: { url: "/messages?tab=requests" } }]);
    await connections.accept(sent.json.data.id, two.a.headers);
    await deliver();
    expect(to(ourPhone)).toMatchObject([{ urgency: "normal", topic: null, payload: { body: `${two.name} accepted your request` } }]);
  });

  it("sends a push queued within the run's own millisecond (the database's clock has microseconds, the run's milliseconds)", async () => {
    const them = await messagingCouple();
    const phone = await deviceOf(them.a);
    const db = await getDb();
    const [subscription] = await db
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, phone.endpoint));
    const run = new Date();
    await db.insert(pushOutbox).values({
      ...helloPush(subscription!.id),
      // As the column's default writes it when the row is queued a moment after `run` was read.
      dueAt: sql`${run.toISOString()}::timestamptz + interval '500 microseconds'`,
    });
    expect(await deliver(run)).toMatchObject({ sent: 1 });
    expect(to(phone)).toHaveLength(1);
  });
});

describe("Web Push: a deleted account", () => {
  it("takes the pushes still waiting that name its person, even one with no in-app row to go with", async () => {
    const one = await messagingCouple();
    const two = await messagingCouple();
    const db = await getDb();
    // In-app off for hellos: the push is the only trace, and names the couple that said hello.
    await db
      .insert(notificationPreferences)
      .values({ userId: two.a.userId, type: "connection_request", inApp: false, email: false, push: true });
    const phone = await deviceOf(two.a);
    expect((await connections.send({ coupleId: two.coupleId, note: "Hello from us" }, one.a.headers)).status).toBe(201);
    const waiting = () =>
      db
        .select({ title: pushOutbox.title, notificationId: pushOutbox.notificationId })
        .from(pushOutbox)
        .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, pushOutbox.subscriptionId))
        .where(eq(pushSubscriptions.endpoint, phone.endpoint));
    expect(await waiting()).toEqual([{ title: expect.any(String), notificationId: null }]);

    await deleteAccount(db, one.a.userId, PASSWORD);
    expect(await waiting()).toEqual([]);
    await deliver();
    expect(to(phone)).toEqual([]);
  });
});

describe("Web Push: forum words that are gone or changed", () => {
  const HARSH = "You two are the worst couple on this forum";

  /** `person` hears of `type` by push alone (no in-app notice, no e-mail), previews on, on a phone whose push service is busy. */
  async function busyPhoneHearing(person: Person, type: "reply" | "reaction") {
    const db = await getDb();
    await db.insert(notificationPreferences).values({ userId: person.userId, type, inApp: false, email: false, push: true });
    const phone = await deviceOf(person, [503]);
    const previews = { body: { showPreviews: true }, headers: person.headers };
    expect((await call(pushSettingsRoute, "PUT", "/api/push/settings", previews)).status).toBe(200);
    return phone;
  }

  /** The words of the pushes waiting for `phone`. */
  async function waitingFor(phone: { endpoint: string }) {
    const rows = await (
      await getDb()
    )
      .select({ body: pushOutbox.body })
      .from(pushOutbox)
      .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, pushOutbox.subscriptionId))
      .where(eq(pushSubscriptions.endpoint, phone.endpoint));
    return rows.map((push) => push.body);
  }

  /**
   * `us` posts with in-app notices of replies off (the push is the only trace) and previews on;
   * `them` replies with HARSH while the push service is busy: the push waits for its retry.
   */
  async function replyWaiting() {
    const us = await forumCouple();
    const them = await forumCouple();
    const phone = await busyPhoneHearing(us.a, "reply");
    const post = (await forum.create(postBody(), us.a.headers)).json.data as { id: string };
    const reply = (await forum.reply(post.id, { body: HARSH }, them.a.headers)).json.data as { id: string };
    const start = Date.now();
    expect(await deliver(new Date(start))).toMatchObject({ sent: 0, retried: 1 });
    const waiting = () => waitingFor(phone);
    expect(await waiting()).toEqual([HARSH]);
    return { us, them, phone, reply, waiting, retry: () => deliver(new Date(start + 31_000)) };
  }

  /** `reporter` reports the words and a moderator removes them from the report: 200. */
  async function moderatorRemoves(targetType: "post" | "reply", targetId: string, reporter: Person) {
    const filed = await call(reportRoute, "POST", "/api/reports", {
      body: { targetType, targetId, reason: "harassment" },
      headers: reporter.headers,
    });
    const moderator = await forumCouple();
    await (await getDb()).update(users).set({ role: "admin" }).where(eq(users.id, moderator.a.userId));
    const removed = await call(resolveRoute, "POST", `/api/moderation/reports/${filed.json.data.id}/remove`, {
      headers: moderator.a.headers,
      params: { id: filed.json.data.id, action: "remove" },
    });
    expect(removed.status).toBe(200);
  }

  it("erases a waiting push quoting a reply its author deleted, and sends nothing", async () => {
    const { them, phone, reply, waiting, retry } = await replyWaiting();
    expect((await forum.removeReply(reply.id, them.a.headers)).status).toBe(200);
    expect(await waiting()).toEqual([]);
    await retry();
    expect(to(phone)).toEqual([]);
  });

  it("erases a waiting push quoting a reply a moderator removed", async () => {
    const { us, phone, reply, waiting, retry } = await replyWaiting();
    await moderatorRemoves("reply", reply.id, us.b);
    expect(await waiting()).toEqual([]);
    await retry();
    expect(to(phone)).toEqual([]);
  });

  it("erases a waiting push quoting a reply hidden by reports", async () => {
    const { us, phone, reply, waiting, retry } = await replyWaiting();
    for (const reporter of [us.b, (await forumCouple()).a, (await forumCouple()).a]) {
      const body = { targetType: "reply", targetId: reply.id, reason: "harassment" };
      expect((await call(reportRoute, "POST", "/api/reports", { body, headers: reporter.headers })).status).toBe(201);
    }
    expect(await waiting()).toEqual([]);
    await retry();
    expect(to(phone)).toEqual([]);
  });

  /**
   * `us` wrote a post and a reply, with in-app notices of reactions off (the push is the only
   * trace) and previews on; `them` reacts to one of them while the push service is busy: the push
   * to `us`, quoting the words reacted to, waits for its retry.
   */
  async function reactionWaiting(target: "post" | "reply") {
    const us = await forumCouple();
    const them = await forumCouple();
    const phone = await busyPhoneHearing(us.a, "reaction");
    const post = (await forum.create(postBody({ title: HARSH }), us.a.headers)).json.data as { id: string };
    const reply = (await forum.reply(post.id, { body: HARSH }, us.a.headers)).json.data as { id: string };
    const id = target === "post" ? post.id : reply.id;
    expect((await forum.react(target, id, "heart", true, them.a.headers)).status).toBe(200);
    const start = Date.now();
    expect(await deliver(new Date(start))).toMatchObject({ sent: 0, retried: 1 });
    const waiting = () => waitingFor(phone);
    expect(await waiting()).toEqual([HARSH]);
    return { us, them, phone, id, waiting, retry: () => deliver(new Date(start + 31_000)) };
  }

  it("erases a waiting reaction push to the author quoting a post or reply the author deleted", async () => {
    for (const target of ["post", "reply"] as const) {
      const { us, phone, id, waiting, retry } = await reactionWaiting(target);
      const deleted = target === "post" ? await forum.remove(id, us.a.headers) : await forum.removeReply(id, us.a.headers);
      expect(deleted.status).toBe(200);
      expect(await waiting()).toEqual([]);
      await retry();
      expect(to(phone)).toEqual([]);
    }
  });

  it("erases a waiting reaction push to the author quoting a post or reply a moderator removed", async () => {
    for (const target of ["post", "reply"] as const) {
      const { them, phone, id, waiting, retry } = await reactionWaiting(target);
      await moderatorRemoves(target, id, them.b);
      expect(await waiting()).toEqual([]);
      await retry();
      expect(to(phone)).toEqual([]);
    }
  });

  it("sends an edited reply's words as they now read", async () => {
    const { them, phone, reply, waiting, retry } = await replyWaiting();
    expect((await forum.patchReply(reply.id, { body: "Sorry, that was unkind" }, them.a.headers)).status).toBe(200);
    expect(await waiting()).toEqual(["Sorry, that was unkind"]);
    await retry();
    expect(to(phone).map((push) => push.payload.body)).toEqual(["Sorry, that was unkind"]);
  });
});

describe("Web Push: the push service's answers", () => {
  it("removes a subscription the push service answers 404 or 410 for", async () => {
    const { one, two, conversationId } = await connected();
    const gone = await deviceOf(two.a, [410]);
    const unknown = await deviceOf(two.b, [404]);
    await talk.send(conversationId, { body: "Hello?" }, one.a.headers);
    expect(await deliver()).toMatchObject({ sent: 0, removed: 2 });
    const db = await getDb();
    for (const device of [gone, unknown])
      expect(await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, device.endpoint))).toEqual([]);
  });

  it("removes a subscription the push service refuses with 401 or 403 (made under another VAPID key: none of ours would reach it)", async () => {
    const { one, two, conversationId } = await connected();
    const unauthorized = await deviceOf(two.a, [401]);
    const forbidden = await deviceOf(two.b, [403]);
    await talk.send(conversationId, { body: "Hello?" }, one.a.headers);
    expect(await deliver()).toMatchObject({ sent: 0, removed: 2 });
    const db = await getDb();
    for (const device of [unauthorized, forbidden])
      expect(await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, device.endpoint))).toEqual([]);
    // The device lists no more, so its settings read 'off' and turning it on subscribes again.
    expect((await call(listRoute, "GET", "/api/push/subscriptions", { headers: two.a.headers })).json.data).toEqual([]);
  });

  it("removes a subscription stored before today's endpoint rule (a port other than 443), calling no push service; one the rule takes is still sent", async () => {
    const { one, two, conversationId } = await connected();
    const [old, kept] = [await deviceOf(two.a), await deviceOf(two.b)];
    const db = await getDb();
    const oldEndpoint = `https://8.8.8.8:8443/push/${randomBytes(8).toString("hex")}`;
    const keptEndpoint = `https://8.8.8.8/push/${randomBytes(8).toString("hex")}`;
    await db.update(pushSubscriptions).set({ endpoint: oldEndpoint }).where(eq(pushSubscriptions.endpoint, old.endpoint));
    await db.update(pushSubscriptions).set({ endpoint: keptEndpoint }).where(eq(pushSubscriptions.endpoint, kept.endpoint));
    await talk.send(conversationId, { body: "Hello?" }, one.a.headers);
    const called: string[] = [];
    const report = await deliverDuePushes(db, {
      transport: async ({ subscription }) => (called.push(subscription.endpoint), { status: 201 }),
      allowLocalEndpoints: false,
    });
    expect(called).toEqual([keptEndpoint]);
    expect(report).toMatchObject({ sent: 1, removed: 1 });
    expect(await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, oldEndpoint))).toEqual([]);
  });

  it("removes a subscription whose keys no push can be encrypted to (stored before they were checked), calling no push service", async () => {
    const couple = await messagingCouple();
    const db = await getDb();
    const device = service.newDevice();
    const key = Buffer.from(device.keys.p256dh, "base64url");
    const rows = await db
      .insert(pushSubscriptions)
      .values(
        [
          randomBytes(60).toString("base64url"),
          Buffer.concat([key.subarray(0, 64), Buffer.from([key[64]! ^ 1])]).toString("base64url"),
        ].map((p256dh, n) => ({
          userId: couple.a.userId,
          endpoint: `${device.endpoint}${n}`,
          p256dh,
          auth: device.keys.auth,
          label: "Chrome on Android",
        })),
      )
      .returning({ id: pushSubscriptions.id });
    await db.insert(pushOutbox).values(rows.map((row) => helloPush(row.id)));
    const calls = service.rejected.length + service.received.length;
    expect(await deliver()).toMatchObject({ sent: 0, removed: 2, retried: 0 });
    expect(service.rejected.length + service.received.length).toBe(calls);
    expect(await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, couple.a.userId))).toEqual([]);
  });

  it("tries again with backoff after 5xx and 429 (its Retry-After), and sends once the service takes it", async () => {
    const { one, two, conversationId } = await connected();
    const busy = await deviceOf(two.a, [503, 429]);
    await talk.send(conversationId, { body: "Hello?" }, one.a.headers);
    const start = Date.now();
    expect(await deliver(new Date(start))).toMatchObject({ sent: 0, retried: 1 });
    // Not due again before its backoff: 30 s, then the 120 s the service's Retry-After asks.
    expect(await deliver(new Date(start + 29_000))).toMatchObject({ sent: 0, retried: 0 });
    expect(await deliver(new Date(start + 31_000))).toMatchObject({ sent: 0, retried: 1 });
    expect(await deliver(new Date(start + 31_000 + 118_000))).toMatchObject({ sent: 0, retried: 0 });
    expect(await deliver(new Date(start + 31_000 + 122_000))).toMatchObject({ sent: 1 });
    expect(to(busy)).toHaveLength(1);
  });

  it(`gives a push up after ${MAX_ATTEMPTS} failed tries`, async () => {
    const { one, two, conversationId } = await connected();
    const failing = await deviceOf(two.b, Array<number>(MAX_ATTEMPTS).fill(500));
    await talk.send(conversationId, { body: "Hello?" }, one.a.headers);
    let at = Date.now();
    const runs = [];
    for (let run = 0; run < MAX_ATTEMPTS; run++) runs.push(await deliver(new Date((at += 3_600_000))));
    expect(runs.map((run) => [run.retried, run.dropped])).toEqual([
      [1, 0],
      [1, 0],
      [1, 0],
      [1, 0],
      [0, 1],
    ]);
    expect(to(failing)).toEqual([]);
    const db = await getDb();
    const [subscription] = await db
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, failing.endpoint));
    expect(await db.select().from(pushOutbox).where(eq(pushOutbox.subscriptionId, subscription!.id))).toEqual([]);
  });

  it("sends each push once when two instances run at the same moment", async () => {
    const { one, two, conversationId } = await connected();
    const devices = [];
    for (let n = 0; n < 4; n++) devices.push(await deviceOf(two.a), await deviceOf(two.b));
    await talk.send(conversationId, { body: "Everyone?" }, one.a.headers);
    const db = await getDb();
    const runs = await Promise.all([
      deliverDuePushes(db, { transport: service.transport, limit: 3 }),
      deliverDuePushes(db, { transport: service.transport, limit: 3 }),
      deliverDuePushes(db, { transport: service.transport }),
    ]);
    expect(runs.reduce((sum, run) => sum + run.sent, 0)).toBe(8);
    for (const device of devices) expect(to(device)).toHaveLength(1);
  });
});

describe("Web Push: a fan-out", () => {
  it(`writes a list's pushes ${PUSH_ROWS_PER_INSERT} a statement: 6,000 (600 notices to a person with 10 devices) past Postgres's 65,535 values`, async () => {
    const db = await getDb();
    const [person] = await db
      .insert(users)
      .values({
        email: `many-${Date.now()}@example.com`,
        passwordHash: "not-a-real-hash",
        firstName: "Many",
        lastName: "Pushes",
        dateOfBirth: "1990-01-01",
      })
      .returning({ id: users.id });
    const subscriptions = await db
      .insert(pushSubscriptions)
      .values(
        Array.from({ length: 10 }, () => {
          const device = service.newDevice();
          return {
            userId: person!.id,
            endpoint: device.endpoint,
            p256dh: device.keys.p256dh,
            auth: device.keys.auth,
            label: "Chrome on Linux",
          };
        }),
      )
      .returning({ id: pushSubscriptions.id });
    const notices = Array.from({ length: 600 }, (_, n) => ({
      notice: { userId: person!.id, type: "connection_request" as const, title: `New request ${n}`, message: "A couple said hello" },
      notificationId: null,
    }));
    expect(await transaction(db, (tx) => enqueuePushes(tx, notices))).toBe(6000);
    const waiting = inArray(
      pushOutbox.subscriptionId,
      subscriptions.map((subscription) => subscription.id),
    );
    expect((await db.select({ id: pushOutbox.id }).from(pushOutbox).where(waiting)).length).toBe(6000);
    // Not for the other tests' deliveries.
    await db.delete(pushOutbox).where(waiting);
  });

  it("delivers 1,000 pushes (100 people with 10 devices each) from commit to the push service, each once", async () => {
    const db = await getDb();
    const people = await db
      .insert(users)
      .values(
        Array.from({ length: 100 }, (_, n) => ({
          email: `fan-out-${n}-${Date.now()}@example.com`,
          passwordHash: "not-a-real-hash",
          firstName: "Fan",
          lastName: "Out",
          dateOfBirth: "1990-01-01",
        })),
      )
      .returning({ id: users.id });
    const devices = people.flatMap((person) => Array.from({ length: 10 }, () => ({ person: person.id, device: service.newDevice() })));
    const subscriptions = await db
      .insert(pushSubscriptions)
      .values(
        devices.map(({ person, device }) => ({
          userId: person,
          endpoint: device.endpoint,
          p256dh: device.keys.p256dh,
          auth: device.keys.auth,
          label: "Chrome on Linux",
        })),
      )
      .returning({ id: pushSubscriptions.id });
    const before = service.received.length;
    await db.insert(pushOutbox).values(
      subscriptions.map((subscription) => ({
        subscriptionId: subscription.id,
        type: "connection_request",
        title: "New request",
        body: "Ana & Rui said hello",
        url: "/messages?tab=requests",
        urgency: "normal" as const,
      })),
    );
    const committed = performance.now();
    const arrivals: number[] = [];
    const timed: typeof service.transport = async (request) => {
      const answer = await service.transport(request);
      arrivals.push(performance.now() - committed);
      return answer;
    };
    const runs = await Promise.all([deliverDuePushes(db, { transport: timed }), deliverDuePushes(db, { transport: timed })]);
    expect(runs[0]!.sent + runs[1]!.sent).toBe(1000);
    expect(service.received.length - before).toBe(1000);
    arrivals.sort((a, b) => a - b);
    const p50 = arrivals[499]!;
    const p99 = arrivals[989]!;
    console.info(
      `[push fan-out] 1000 pushes, two senders: p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms from commit to the push service's answer`,
    );
    expect(p99).toBeLessThan(60_000);
  }, 120_000);
});

describe("Web Push: devices", () => {
  it("lists the person's devices by name, removes one, refuses someone else's and an 11th", async () => {
    const couple = await messagingCouple();
    const first = await deviceOf(couple.a);
    const list = await call(listRoute, "GET", "/api/push/subscriptions", { headers: couple.a.headers });
    expect(list.json.data).toEqual([
      { id: expect.any(String), label: "Chrome on Android", addedAt: expect.any(String), lastDeliveredAt: null, thisDevice: true },
    ]);
    const id = list.json.data[0].id as string;
    expect((await call(removeRoute, "DELETE", "/api/push/subscriptions", { body: { id }, headers: couple.b.headers })).status).toBe(404);
    for (let n = 1; n < MAX_DEVICES; n++) await deviceOf(couple.a);
    const eleventh = service.newDevice();
    const refused = await call(subscribeRoute, "POST", "/api/push/subscriptions", {
      body: { endpoint: eleventh.endpoint, keys: eleventh.keys },
      headers: couple.a.headers,
    });
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toContain("at most 10 devices");
    expect(
      (await call(removeRoute, "DELETE", "/api/push/subscriptions", { body: { endpoint: first.endpoint }, headers: couple.a.headers }))
        .status,
    ).toBe(204);
    expect((await call(listRoute, "GET", "/api/push/subscriptions", { headers: couple.a.headers })).json.data).toHaveLength(
      MAX_DEVICES - 1,
    );
  });

  it(`turns devices on at most ${SUBSCRIBE_LIMIT.limit} times an hour`, async () => {
    const couple = await messagingCouple();
    const device = service.newDevice();
    const again = () =>
      call(subscribeRoute, "POST", "/api/push/subscriptions", {
        body: { endpoint: device.endpoint, keys: device.keys },
        headers: couple.a.headers,
      });
    for (let n = 0; n < SUBSCRIBE_LIMIT.limit; n++) expect((await again()).status).toBe(201);
    const refused = await again();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBeTruthy();
  });

  it("refuses endpoints that are not https, too long, not ASCII, or with bad keys", async () => {
    const couple = await messagingCouple();
    const device = service.newDevice();
    const bodies = [
      { endpoint: device.endpoint.replace("https:", "http:"), keys: device.keys },
      { endpoint: `${device.endpoint}/${"x".repeat(1100)}`, keys: device.keys },
      // Under the limit in characters, past an index row's 2,704 bytes (it answered 500 before): CJK
      // characters of three bytes each, varied so that Postgres cannot compress them under it.
      {
        endpoint: `${device.endpoint}/${Array.from({ length: 1000 - device.endpoint.length }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919) % 20000))).join("")}`,
        keys: device.keys,
      },
      { endpoint: device.endpoint, keys: { p256dh: "short", auth: device.keys.auth } },
      { endpoint: device.endpoint, keys: { p256dh: device.keys.p256dh, auth: "not base64url!!!!!!!" } },
    ];
    for (const body of bodies)
      expect((await call(subscribeRoute, "POST", "/api/push/subscriptions", { body, headers: couple.a.headers })).status).toBe(400);
  });

  it("refuses keys no push could be encrypted to, saying what a key must be", async () => {
    const couple = await messagingCouple();
    const device = service.newDevice();
    const key = Buffer.from(device.keys.p256dh, "base64url");
    const b64 = (bytes: Buffer) => bytes.toString("base64url");
    const notOnTheCurve = Buffer.concat([key.subarray(0, 64), Buffer.from([key[64]! ^ 1])]);
    const p256dhs = [
      b64(randomBytes(60)), // 80 characters: the length the server took before
      b64(Buffer.concat([Buffer.from([0x05]), key.subarray(1)])),
      b64(Buffer.concat([Buffer.from([0x02 | (key[64]! & 1)]), key.subarray(1, 33)])), // compressed
      b64(notOnTheCurve),
    ];
    for (const p256dh of p256dhs) {
      const res = await call(subscribeRoute, "POST", "/api/push/subscriptions", {
        body: { endpoint: device.endpoint, keys: { p256dh, auth: device.keys.auth } },
        headers: couple.a.headers,
      });
      expect(res.status).toBe(400);
      expect(res.json.error.message).toBe("keys.p256dh is not a valid key: a P-256 public key of 65 bytes, base64url");
    }
    for (const auth of [b64(randomBytes(12)), b64(randomBytes(24))]) {
      const res = await call(subscribeRoute, "POST", "/api/push/subscriptions", {
        body: { endpoint: device.endpoint, keys: { p256dh: device.keys.p256dh, auth } },
        headers: couple.a.headers,
      });
      expect(res.status).toBe(400);
      expect(res.json.error.message).toBe("keys.auth is not a valid key: a secret of 16 bytes, base64url");
    }
  });

  it("calls only public hosts unless the tests' setting allows this machine", async () => {
    for (const endpoint of [
      "https://127.0.0.1/push",
      "https://[::1]/push",
      "https://10.1.2.3/push",
      "https://192.168.1.1/push",
      "https://172.20.0.1/push",
      "https://169.254.169.254/latest/meta-data",
      "https://[fe80::1]/push",
      "https://[::ffff:127.0.0.1]/push",
      "https://localhost/push",
      "https://push.localhost/push",
      "http://8.8.8.8/push",
      "https://user:pw@8.8.8.8/push",
      // A public host, but not its HTTPS port: every push service listens on 443.
      "https://8.8.8.8:22/push",
      "https://8.8.8.8:8443/push",
      "https://[::7f00:1]/push",
    ])
      expect(await endpointAllowed(endpoint, false), endpoint).toBe(false);
    expect(await endpointAllowed("https://8.8.8.8/push", false)).toBe(true);
    expect(await endpointAllowed("https://8.8.8.8:443/push", false)).toBe(true);
    expect(await endpointAllowed("https://127.0.0.1:4443/push", true)).toBe(true);
  });

  it("lets none of a person's waiting pushes reach the next person who turns push on in the same browser", async () => {
    const { one, two, conversationId } = await connected();
    const phone = await deviceOf(two.a);
    await talk.send(conversationId, { body: "Our secret plan" }, one.a.headers);
    const db = await getDb();
    const waiting = () =>
      db
        .select({ id: pushOutbox.id })
        .from(pushOutbox)
        .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, pushOutbox.subscriptionId))
        .where(eq(pushSubscriptions.endpoint, phone.endpoint));
    expect(await waiting()).toHaveLength(1);
    // Someone else signs in on that browser and turns push on: the browser keeps its endpoint.
    const next = await messagingCouple();
    const answer = await call(subscribeRoute, "POST", "/api/push/subscriptions", {
      body: { endpoint: phone.endpoint, keys: phone.keys },
      headers: { ...next.a.headers, "user-agent": CHROME_ON_ANDROID },
    });
    expect(answer.status).toBe(201);
    expect(await waiting()).toEqual([]);
    expect(await deliver()).toMatchObject({ sent: 0 });
    expect(to(phone)).toEqual([]);
  });

  it("stops a device's pushes when it signs out, and removes every device with the account", async () => {
    const { one, two, conversationId } = await connected();
    const phone = await deviceOf(two.a);
    const db = await getDb();
    const [row] = await db
      .select({ sessionId: pushSubscriptions.sessionId })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, phone.endpoint));
    // Signed out between the message's commit and the sending: nothing reaches the device.
    await talk.send(conversationId, { body: "Still there?" }, one.a.headers);
    await revokeSession(db, row!.sessionId!);
    expect(await deliver()).toMatchObject({ sent: 0, dropped: 1 });
    // And nothing more is written for it.
    await talk.send(conversationId, { body: "Hello?" }, one.a.headers);
    expect(
      await db
        .select()
        .from(pushOutbox)
        .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, pushOutbox.subscriptionId))
        .where(eq(pushSubscriptions.endpoint, phone.endpoint)),
    ).toEqual([]);
    // The due work's run removes the device itself (and any other signed-out device earlier tests left).
    expect((await deliverDuePushes(db, { transport: service.transport, tidy: true })).removed).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, phone.endpoint))).toEqual([]);
    expect(to(phone)).toEqual([]);

    await deviceOf(two.b);
    await deviceOf(two.b);
    await db.delete(users).where(eq(users.id, two.b.userId));
    expect(await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, two.b.userId))).toEqual([]);
  });
});

describe("Web Push: the prompt and the choices", () => {
  it("prompts once the couple's first hello is accepted, and never again once answered", async () => {
    const one = await messagingCouple();
    const two = await messagingCouple();
    const db = await getDb();
    expect(await pushPromptDue(db, one.a.userId, one.coupleId)).toBe(false);
    const sent = await connections.send({ coupleId: two.coupleId, note: "Hello from us" }, one.a.headers);
    // A hello waiting for an answer is not yet a conversation.
    expect(await pushPromptDue(db, one.a.userId, one.coupleId)).toBe(false);
    await connections.accept(sent.json.data.id, two.a.headers);
    expect(await pushPromptDue(db, one.a.userId, one.coupleId)).toBe(true);
    expect(await pushPromptDue(db, two.b.userId, two.coupleId)).toBe(true);
    await call(pushSettingsRoute, "PUT", "/api/push/settings", { body: { promptDone: true }, headers: one.a.headers });
    expect(await pushPromptDue(db, one.a.userId, one.coupleId)).toBe(false);
    // Each partner answers for themselves.
    expect(await pushPromptDue(db, one.b.userId, one.coupleId)).toBe(true);
  });

  it("puts the person's devices and push choices in their data export, never a device's endpoint or keys", async () => {
    const couple = await messagingCouple();
    const device = await deviceOf(couple.a);
    expect(
      (await call(pushSettingsRoute, "PUT", "/api/push/settings", { body: { showPreviews: true }, headers: couple.a.headers })).status,
    ).toBe(200);
    const exported = await exportAccount(await getDb(), couple.a.userId);
    expect(exported.pushDevices).toEqual([{ label: "Chrome on Android", createdAt: expect.any(Date), lastDeliveredAt: null }]);
    expect(exported.pushChoices).toEqual({ showPreviews: true, promptDone: false });
    const text = JSON.stringify(exported);
    for (const secret of [device.endpoint, device.keys.p256dh, device.keys.auth]) expect(text).not.toContain(secret);
  });

  it("keeps 'Show message previews' off until chosen, and refuses bad bodies", async () => {
    const couple = await messagingCouple();
    expect((await call(getPushSettingsRoute, "GET", "/api/push/settings", { headers: couple.a.headers })).json.data).toEqual({
      showPreviews: false,
      promptDone: false,
    });
    for (const body of [{ showPreviews: "yes" }, { promptDone: false }])
      expect((await call(pushSettingsRoute, "PUT", "/api/push/settings", { body, headers: couple.a.headers })).status).toBe(400);
    expect((await call(pushSettingsRoute, "PUT", "/api/push/settings", { body: { showPreviews: true }, headers: {} })).status).toBe(401);
  });
});
