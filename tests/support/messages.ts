/** Helpers of the messaging integration tests: couples old enough to say hello freely, and the calls. */
import { eq } from "drizzle-orm";
import { POST as acceptRoute } from "@/app/api/connections/[id]/accept/route";
import { POST as declineRoute } from "@/app/api/connections/[id]/decline/route";
import { GET as listRequestsRoute, POST as sendRoute } from "@/app/api/connections/route";
import { PUT as blockRoute } from "@/app/api/couples/[id]/block/route";
import { getDb } from "@/db/client";
import { couples } from "@/db/schema";
import { call } from "./api";
import { forumCouple, type Headers, type TestCouple } from "./forum";

const enc = encodeURIComponent;
const DAY = 24 * 60 * 60 * 1000;

/** A complete, visible couple, two days old unless told (a younger couple sends 3 requests a day, not 10). */
export async function messagingCouple(options: { visible?: boolean; ageDays?: number; bothApprove?: boolean } = {}): Promise<TestCouple> {
  const made = await forumCouple({ visible: options.visible });
  const db = await getDb();
  await db
    .update(couples)
    .set({ createdAt: new Date(Date.now() - (options.ageDays ?? 2) * DAY), bothApproveConnections: options.bothApprove ?? false })
    .where(eq(couples.id, made.coupleId));
  return made;
}

export const connections = {
  send: (body: unknown, h: Headers) => call(sendRoute, "POST", "/api/connections", { body, headers: h }),
  list: (box: string, h: Headers) => call(listRequestsRoute, "GET", `/api/connections?box=${enc(box)}`, { headers: h }),
  accept: (id: string, h: Headers) => call(acceptRoute, "POST", `/api/connections/${enc(id)}/accept`, { headers: h, params: { id } }),
  decline: (id: string, h: Headers) => call(declineRoute, "POST", `/api/connections/${enc(id)}/decline`, { headers: h, params: { id } }),
};

export const block = (coupleId: string, h: Headers) =>
  call(blockRoute, "PUT", `/api/couples/${enc(coupleId)}/block`, { headers: h, params: { id: coupleId } });

/** Two couples talking: `one` said hello, `two`'s partner A accepted. */
export async function connected(): Promise<{ one: TestCouple; two: TestCouple; conversationId: string }> {
  const one = await messagingCouple();
  const two = await messagingCouple();
  const sent = await connections.send({ coupleId: two.coupleId, note: "Hello from us" }, one.a.headers);
  const accepted = await connections.accept(sent.json.data.id, two.a.headers);
  return { one, two, conversationId: accepted.json.data.conversationId };
}
