import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { PUT as blockRoute } from "@/app/api/couples/[id]/block/route";
import { POST as dismissRoute } from "@/app/api/discover/[coupleId]/dismiss/route";
import { VANISHED_MESSAGE } from "@/lib/http/errors";
import { call } from "../support/api";
import { forumCouple, type Headers } from "../support/forum";
import { onPostgres } from "../support/test-database";

const block = (id: string, h: Headers) => call(blockRoute, "PUT", `/api/couples/${id}/block`, { headers: h, params: { id } });
const dismiss = (id: string, h: Headers) =>
  call(dismissRoute, "POST", `/api/discover/${id}/dismiss`, { headers: h, params: { coupleId: id } });

/**
 * Deletes the couple on a second connection and commits only once `write` waits on the row's lock:
 * the write found the couple, then the couple is gone by its insert (two requests at one instant,
 * made certain). Needs a second connection, so Postgres only.
 */
async function deletedDuring(coupleId: string, write: () => Promise<{ status: number; json: unknown }>) {
  const other = postgres(process.env.DATABASE_URL!, { max: 2, onnotice: () => {} });
  try {
    const deleter = await other.reserve();
    await deleter`begin`;
    await deleter`delete from couples where id = ${coupleId}`;
    const pending = write();
    for (let tries = 0; tries < 200; tries++) {
      const [waiting] =
        await other`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
      if (waiting!.n > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await deleter`commit`;
    deleter.release();
    return await pending;
  } finally {
    await other.end({ timeout: 1 });
  }
}

describe.skipIf(!onPostgres())("a couple deleted while another couple acts on it", () => {
  it("blocking them answers 404, not 500", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const res = await deletedDuring(them.coupleId, () => block(them.coupleId, us.a.headers));
    expect(res).toMatchObject({ status: 404, json: { error: { code: "NOT_FOUND", message: VANISHED_MESSAGE } } });
  });

  it("'Not for us' answers 404, not 500", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const res = await deletedDuring(them.coupleId, () => dismiss(them.coupleId, us.a.headers));
    expect(res).toMatchObject({ status: 404, json: { error: { code: "NOT_FOUND", message: VANISHED_MESSAGE } } });
  });
});
