/** Helpers of the messaging integration tests: couples old enough to say hello freely, and the calls. */
import { eq } from "drizzle-orm";
import { POST as acceptRoute } from "@/app/api/connections/[id]/accept/route";
import { POST as declineRoute } from "@/app/api/connections/[id]/decline/route";
import { GET as listRequestsRoute, POST as sendRoute } from "@/app/api/connections/route";
import { GET as readConversationRoute } from "@/app/api/conversations/[id]/route";
import { GET as threadRoute, POST as sendMessageRoute } from "@/app/api/conversations/[id]/messages/route";
import { DELETE as unmuteRoute, POST as muteRoute } from "@/app/api/conversations/[id]/mute/route";
import { POST as readRoute } from "@/app/api/conversations/[id]/read/route";
import { GET as inboxRoute } from "@/app/api/conversations/route";
import { DELETE as unblockRoute, PUT as blockRoute } from "@/app/api/couples/[id]/block/route";
import { DELETE as unreactRoute, PUT as reactRoute } from "@/app/api/messages/[id]/reactions/[kind]/route";
import { DELETE as deleteMessageRoute, PATCH as editMessageRoute } from "@/app/api/messages/[id]/route";
import { GET as unreadRoute } from "@/app/api/messages/unread-count/route";
import { getDb } from "@/db/client";
import { connectionRequests, couples } from "@/db/schema";
import { call } from "./api";
import { forumCouple, type Headers, type TestCouple } from "./forum";

const enc = encodeURIComponent;
const DAY = 24 * 60 * 60 * 1000;

/** A complete, visible couple, eight days old unless told (a couple under 7 days sends 3 requests a day, not 10). */
export async function messagingCouple(options: { visible?: boolean; ageDays?: number; bothApprove?: boolean } = {}): Promise<TestCouple> {
  const made = await forumCouple({ visible: options.visible });
  const db = await getDb();
  await db
    .update(couples)
    .set({ createdAt: new Date(Date.now() - (options.ageDays ?? 8) * DAY), bothApproveConnections: options.bothApprove ?? false })
    .where(eq(couples.id, made.coupleId));
  return made;
}

export const connections = {
  send: (body: unknown, h: Headers) => call(sendRoute, "POST", "/api/connections", { body, headers: h }),
  list: (box: string, h: Headers, cursor?: string) =>
    call(listRequestsRoute, "GET", `/api/connections?box=${enc(box)}${cursor === undefined ? "" : `&cursor=${enc(cursor)}`}`, {
      headers: h,
    }),
  accept: (id: string, h: Headers) => call(acceptRoute, "POST", `/api/connections/${enc(id)}/accept`, { headers: h, params: { id } }),
  decline: (id: string, h: Headers) => call(declineRoute, "POST", `/api/connections/${enc(id)}/decline`, { headers: h, params: { id } }),
};

/** A hello's status and the conversation it opened (none yet while it waits), as stored. */
export async function requestRow(id: string) {
  const db = await getDb();
  const [row] = await db
    .select({ status: connectionRequests.status, conversationId: connectionRequests.conversationId })
    .from(connectionRequests)
    .where(eq(connectionRequests.id, id));
  return row;
}

export const block = (coupleId: string, h: Headers) =>
  call(blockRoute, "PUT", `/api/couples/${enc(coupleId)}/block`, { headers: h, params: { id: coupleId } });
export const unblock = (coupleId: string, h: Headers) =>
  call(unblockRoute, "DELETE", `/api/couples/${enc(coupleId)}/block`, { headers: h, params: { id: coupleId } });

/** Two couples talking: `one` said hello, `two`'s partner A accepted. */
export async function connected(): Promise<{ one: TestCouple; two: TestCouple; conversationId: string }> {
  const one = await messagingCouple();
  const two = await messagingCouple();
  const sent = await connections.send({ coupleId: two.coupleId, note: "Hello from us" }, one.a.headers);
  const accepted = await connections.accept(sent.json.data.id, two.a.headers);
  return { one, two, conversationId: accepted.json.data.conversationId };
}

const conv = (id: string) => `/api/conversations/${enc(id)}`;
export const talk = {
  inbox: (h: Headers, qs = "") => call(inboxRoute, "GET", `/api/conversations${qs}`, { headers: h }),
  detail: (id: string, h: Headers) => call(readConversationRoute, "GET", conv(id), { headers: h, params: { id } }),
  thread: (id: string, h: Headers, qs = "") => call(threadRoute, "GET", `${conv(id)}/messages${qs}`, { headers: h, params: { id } }),
  send: (id: string, body: unknown, h: Headers) =>
    call(sendMessageRoute, "POST", `${conv(id)}/messages`, { body, headers: h, params: { id } }),
  read: (id: string, body: unknown, h: Headers) => call(readRoute, "POST", `${conv(id)}/read`, { body, headers: h, params: { id } }),
  mute: (id: string, on: boolean, h: Headers) =>
    call(on ? muteRoute : unmuteRoute, on ? "POST" : "DELETE", `${conv(id)}/mute`, { headers: h, params: { id } }),
  remove: (id: string, h: Headers) => call(deleteMessageRoute, "DELETE", `/api/messages/${enc(id)}`, { headers: h, params: { id } }),
  edit: (id: string, body: unknown, h: Headers) =>
    call(editMessageRoute, "PATCH", `/api/messages/${enc(id)}`, { body, headers: h, params: { id } }),
  react: (id: string, kind: string, on: boolean, h: Headers) =>
    call(on ? reactRoute : unreactRoute, on ? "PUT" : "DELETE", `/api/messages/${enc(id)}/reactions/${enc(kind)}`, {
      headers: h,
      params: { id, kind },
    }),
  unread: (h: Headers) => call(unreadRoute, "GET", "/api/messages/unread-count", { headers: h }),
};
