import { readFileSync } from "node:fs";
import { expect, request as newRequest, test, type APIRequestContext, type BrowserContext, type Page } from "@playwright/test";
import { DEMO_COUPLES, DEMO_PASSWORD, demoCoupleName, demoEmail } from "../../lib/demo/data";
import { UNREAD_EVENT } from "../../lib/live/rules";
import { startPushStandIn, type Certificate } from "../support/push-stand-in";
import { csrf, signIn } from "./support";

/**
 * Web Push and the live connection across the rehearsal's two instances, each reached directly
 * (REHEARSE_INSTANCES) as the edge would forward a request to it: a device subscribed on one
 * gets exactly one push for a message sent through the other, with both running their due work at
 * once; and a live event published on one reaches a stream held on the other. The push service is
 * the tests' local stand-in (its certificate made by scripts/rehearse.ts, which the instances trust).
 */
const [INSTANCE_A, INSTANCE_B] = (process.env.REHEARSE_INSTANCES ?? "").split(",") as [string, string];
const CRON_SECRET = process.env.REHEARSE_CRON_SECRET ?? "";

/** What the edge forwards of a person's browser: their session's cookies, and the one hop it adds. */
const forwarded = async (context: BrowserContext) => ({
  cookie: (await context.cookies()).map(({ name, value }) => `${name}=${value}`).join("; "),
  "x-forwarded-for": "203.0.113.33",
});

/** The person's requests straight to one instance. */
const onInstance = async (context: BrowserContext, origin: string): Promise<APIRequestContext> =>
  newRequest.newContext({ baseURL: origin, extraHTTPHeaders: await forwarded(context) });

async function signedIn(context: BrowserContext, firstName: string): Promise<Page> {
  const page = await context.newPage();
  await signIn(page, demoEmail(firstName), DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  return page;
}

const csrfOn = async (instance: APIRequestContext) =>
  ((await (await instance.get("/api/csrf-token")).json()) as { csrfToken: string }).csrfToken;

/** The live stream held on one instance, as the browser's one EventSource would: everything it has said so far. */
async function holdStream(context: BrowserContext, origin: string) {
  const abort = new AbortController();
  const response = await fetch(`${origin}/api/stream`, {
    headers: { ...(await forwarded(context)), accept: "text/event-stream" },
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const said = { text: "" };
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      said.text += value;
    }
  })();
  // The stream has taken its place in the person's events once it has said the unread counts
  // (lib/live/sse.ts begin): only what is committed after that is its to send.
  await expect.poll(() => said.text.includes(`event: ${UNREAD_EVENT}\n`), { timeout: 15_000 }).toBe(true);
  return { said, close: () => abort.abort() };
}

test("a device subscribed on one instance gets one push for a message sent through the other; a live event crosses instances", async ({
  browser,
}) => {
  test.skip(!INSTANCE_B || !CRON_SECRET, "run by `npm run rehearse`, which names the instances");
  const [reader, writer] = [DEMO_COUPLES[6]!, DEMO_COUPLES[7]!];
  const readerContext = await browser.newContext();
  const writerContext = await browser.newContext();
  const readerPage = await signedIn(readerContext, reader.partnerA.firstName);
  const writerPage = await signedIn(writerContext, writer.partnerA.firstName);

  // The writer says hello, the reader accepts (through the edge): their conversation opens.
  const coupleOf = async (page: Page) => ((await (await page.request.get("/api/v2/auth/me")).json()) as { coupleId: string }).coupleId;
  const note = `Hello across instances ${Date.now()}`;
  const sent = await writerPage.request.post("/api/connections", {
    headers: { "X-CSRF-Token": await csrf(writerPage) },
    data: { coupleId: await coupleOf(readerPage), note },
  });
  expect(sent.status()).toBe(201);
  const incoming = (await (await readerPage.request.get("/api/connections?box=incoming")).json()) as {
    data: { id: string; note: string }[];
  };
  const hello = incoming.data.find((row) => row.note === note)!;
  const accepted = await readerPage.request.post(`/api/connections/${hello.id}/accept`, {
    headers: { "X-CSRF-Token": await csrf(readerPage) },
  });
  expect(accepted.status()).toBe(200);
  const { conversationId } = ((await accepted.json()) as { data: { conversationId: string } }).data;
  // The reader's tab leaves the app: nothing of the conversation is on screen, so the push is due.
  await readerPage.goto("about:blank");

  const certificate = JSON.parse(readFileSync(process.env.REHEARSE_PUSH_CERTIFICATE!, "utf8")) as Certificate;
  const pushService = await startPushStandIn(process.env.REHEARSE_VAPID_PUBLIC_KEY!, certificate);
  const readerOnA = await onInstance(readerContext, INSTANCE_A);
  const writerOnB = await onInstance(writerContext, INSTANCE_B);
  try {
    // The reader turns notifications on, on instance A.
    const device = pushService.newDevice();
    const subscribed = await readerOnA.post("/api/push/subscriptions", {
      headers: { "X-CSRF-Token": await csrfOn(readerOnA) },
      data: { endpoint: device.endpoint, keys: device.keys },
    });
    expect(subscribed.status()).toBe(201);
    const stream = await holdStream(readerContext, INSTANCE_A);

    // The writer writes through instance B; B sends after its answer, and both instances run their due work at once.
    const message = await writerOnB.post(`/api/conversations/${conversationId}/messages`, {
      headers: { "X-CSRF-Token": await csrfOn(writerOnB) },
      data: { body: "Are you free on Saturday?" },
    });
    expect(message.status()).toBe(201);
    const messageId = ((await message.json()) as { data: { id: string } }).data.id;

    // The live event published on B reaches the stream held on A (Postgres LISTEN/NOTIFY and the rows).
    await expect.poll(() => stream.said.text.includes(messageId), { timeout: 15_000 }).toBe(true);
    stream.close();

    const runDueWork = (origin: string) =>
      fetch(`${origin}/api/cron/due`, { method: "POST", headers: { authorization: `Bearer ${CRON_SECRET}` } }).then(
        (answer) => answer.status,
      );
    for (let round = 0; round < 2; round++) expect(await Promise.all([runDueWork(INSTANCE_A), runDueWork(INSTANCE_B)])).toEqual([200, 200]);
    await expect.poll(() => pushService.received.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    expect(await Promise.all([runDueWork(INSTANCE_A), runDueWork(INSTANCE_B)])).toEqual([200, 200]);
    expect(pushService.rejected).toEqual([]);
    expect(pushService.received).toHaveLength(1);
    expect(pushService.received[0]).toMatchObject({
      device: device.id,
      urgency: "high",
      topic: conversationId.replaceAll("-", ""),
      payload: { title: `New messages from ${demoCoupleName(writer)}`, url: `/messages/${conversationId}`, conversationId },
    });
    // No words of the message without 'Show message previews'.
    expect(JSON.stringify(pushService.received[0]!.payload)).not.toContain("Saturday");
  } finally {
    await readerOnA.dispose();
    await writerOnB.dispose();
    await pushService.close();
    await readerContext.close();
    await writerContext.close();
  }
});
