/**
 * This instance's open streams, by person, oldest first: one person may hold at most
 * STREAMS_PER_PERSON (one browser holds one, its tabs share it), so a script with one account
 * cannot take the server's memory; a stream past the cap ends the person's oldest, which tells
 * its browser to come back later (lib/live/rules.ts REPLACED_EVENT).
 */
export type OpenStream = {
  /** Ends the stream because a newer one of the same person took its place. */
  displace(): void;
};

export type OpenStreams = {
  /** Counts `stream` as open for `userId`, displacing the oldest ones past `limit`; answers the removal. */
  add(userId: string, stream: OpenStream, limit: number): () => void;
  /** How many streams `userId` holds open on this instance now. */
  count(userId: string): number;
  /** How many streams are open on this instance now (the bench reads it). */
  total(): number;
};

export function createOpenStreams(): OpenStreams {
  const byPerson = new Map<string, Set<OpenStream>>();
  const remove = (userId: string, stream: OpenStream) => {
    const streams = byPerson.get(userId);
    if (!streams?.delete(stream)) return;
    if (streams.size === 0) byPerson.delete(userId);
  };
  return {
    add(userId, stream, limit) {
      const streams = byPerson.get(userId) ?? new Set();
      byPerson.set(userId, streams);
      streams.add(stream);
      // A Set keeps insertion order: the first ones are the oldest.
      for (const oldest of [...streams].slice(0, Math.max(0, streams.size - limit))) {
        remove(userId, oldest);
        oldest.displace();
      }
      return () => remove(userId, stream);
    },
    count: (userId) => byPerson.get(userId)?.size ?? 0,
    total: () => [...byPerson.values()].reduce((sum, streams) => sum + streams.size, 0),
  };
}

const globalForStreams = globalThis as unknown as { __liveOpenStreams?: OpenStreams };

/** This instance's register (one per process, as the listener). */
export function openStreams(): OpenStreams {
  globalForStreams.__liveOpenStreams ??= createOpenStreams();
  return globalForStreams.__liveOpenStreams;
}
