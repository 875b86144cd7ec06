import { describe, expect, it } from "vitest";
import { openStreams } from "@/lib/live/open-streams";
import { REPLACED_RETRY_MS, STREAMS_PER_PERSON } from "@/lib/live/rules";
import { browserSession, createUser } from "../support/api";
import { named, openStream } from "../support/live";

/** One person may hold STREAMS_PER_PERSON streams on an instance; a newer one ends their oldest. */

async function person() {
  const user = await createUser();
  const session = await browserSession(user.id);
  return { user, headers: { cookie: session.cookie } };
}

const opened = async (headers: Record<string, string>) => {
  const { stream } = await openStream(headers);
  await stream.waitFor((events) => events.length >= 1);
  return stream;
};

describe("the cap on a person's open streams", () => {
  it("ends the oldest stream with 'replaced' when one person opens one more than the cap, and no one else's", async () => {
    const [ana, leo] = [await person(), await person()];
    const leos = await opened(leo.headers);
    const anas = [];
    for (let i = 0; i < STREAMS_PER_PERSON; i++) anas.push(await opened(ana.headers));
    try {
      expect(openStreams().count(ana.user.id)).toBe(STREAMS_PER_PERSON);
      anas.push(await opened(ana.headers));
      await anas[0]!.ended;
      expect(named(anas[0]!.events, "replaced")).toEqual([{ id: Number.NaN, event: "replaced", data: { retryMs: REPLACED_RETRY_MS } }]);
      expect(openStreams().count(ana.user.id)).toBe(STREAMS_PER_PERSON);
      expect(openStreams().count(leo.user.id)).toBe(1);
      for (const stream of [...anas.slice(1), leos]) expect(named(stream.events, "replaced")).toEqual([]);

      // The next one past the cap ends the next oldest.
      anas.push(await opened(ana.headers));
      await anas[1]!.ended;
      expect(named(anas[1]!.events, "replaced")).toHaveLength(1);
    } finally {
      [...anas, leos].forEach((stream) => stream.close());
    }
  });

  it("counts a stream as open only until it ends", async () => {
    const ana = await person();
    const stream = await opened(ana.headers);
    expect(openStreams().count(ana.user.id)).toBe(1);
    stream.close();
    await stream.ended;
    await expect.poll(() => openStreams().count(ana.user.id)).toBe(0);
  });
});
