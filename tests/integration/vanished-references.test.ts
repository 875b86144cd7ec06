import { describe, expect, it } from "vitest";
import { PUT as blockRoute } from "@/app/api/couples/[id]/block/route";
import { POST as dismissRoute } from "@/app/api/discover/[coupleId]/dismiss/route";
import { POST as forumPhotoRoute } from "@/app/api/forum/photos/route";
import { POST as messagePhotoRoute } from "@/app/api/messages/photos/route";
import { POST as stageRoute } from "@/app/api/uploads/route";
import { VANISHED_MESSAGE } from "@/lib/http/errors";
import { call } from "../support/api";
import { forumCouple, type Headers } from "../support/forum";
import { whileHeld } from "../support/lock-race";
import { formOf, jpeg, post, storedFiles } from "../support/onboarding";
import { onPostgres } from "../support/test-database";

const block = (id: string, h: Headers) => call(blockRoute, "PUT", `/api/couples/${id}/block`, { headers: h, params: { id } });
const dismiss = (id: string, h: Headers) =>
  call(dismissRoute, "POST", `/api/discover/${id}/dismiss`, { headers: h, params: { coupleId: id } });

/**
 * Deletes the couple on a second connection and commits only once `write` waits on the row's lock:
 * the write found the couple, then the couple is gone by its insert (two requests at one instant).
 */
const deletedDuring = async (coupleId: string, write: () => Promise<{ status: number; json: unknown }>) =>
  (await whileHeld((tx) => tx`delete from couples where id = ${coupleId}`, [write]))[0]!;

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

const photoUploads = [
  { name: "a couple photo ahead of its save", route: stageRoute, url: "/api/uploads", fields: { kind: "couple-photo" } },
  { name: "a forum photo", route: forumPhotoRoute, url: "/api/forum/photos", fields: {} },
  { name: "a message photo", route: messagePhotoRoute, url: "/api/messages/photos", fields: {} },
];

describe.skipIf(!onPostgres())("a person deleted while their photo upload is processed", () => {
  it.each(photoUploads)("$name answers as a vanished reference does (404), not 500, and keeps no file", async ({ route, url, fields }) => {
    const us = await forumCouple();
    const filesBefore = await storedFiles();
    const form = formOf({ ...fields, photo: await jpeg() });
    // The upload's insert waits on the person's row the deletion holds, then finds it gone.
    const [res] = await whileHeld((tx) => tx`delete from users where id = ${us.a.userId}`, [() => post(route, url, form, us.a.headers)]);
    expect(res).toMatchObject({ status: 404, json: { error: { code: "NOT_FOUND", message: VANISHED_MESSAGE } } });
    expect(await storedFiles()).toEqual(filesBefore);
  });
});
