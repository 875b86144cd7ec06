import "server-only";
import { and, eq, not } from "drizzle-orm";
import { conversations, users } from "@/db/schema";
import type { EphemeralKind, LiveFeature } from "@/lib/live/kinds";
import { mayReceive, memberOf } from "./access";
import { endedSql } from "./queries";

/**
 * '... is typing' (registered in lib/registry/live.ts): never stored, sent to the open streams of
 * the conversation's other members (lib/messages/service.ts `announceTyping`). Subject: the
 * conversation; payload: `{ userId }`, who is typing. Each instance checks, before it forwards,
 * that the person may still receive the conversation, that it has not ended and that the typist
 * is still one of its members.
 */
export const TYPING: EphemeralKind = {
  name: "typing",
  event: "typing",
  async render({ db, userId }, { subjectId: conversationId, payload }) {
    const typist = payload.userId;
    if (!typist || typist === userId) return undefined;
    const [row] = await db
      .select({ firstName: users.firstName })
      .from(conversations)
      .innerJoin(users, eq(users.id, typist))
      .where(and(eq(conversations.id, conversationId), not(endedSql), mayReceive(userId), memberOf(typist)));
    return row && { conversationId, userId: typist, firstName: row.firstName };
  },
};

export const typingLive: LiveFeature = { ephemeral: [TYPING] };
