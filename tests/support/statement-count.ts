import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { Db } from "@/db/client";
import * as schema from "@/db/schema";

/** One statement sent to the server: its text and how many round trips deep it was sent. */
export type Sent = { text: string; depth: number };

/**
 * A database handle over a postgres.js pool of its own that records every statement it sends
 * (a transaction's BEGIN and COMMIT included) and the round trip each one waited behind: a
 * statement sent after another's answer is one deeper than the answer it followed, statements sent
 * side by side share a depth. `rounds()` is the deepest: the round trips a caller waited in turn,
 * whatever ran beside them.
 */
export function countingDatabase(url: string) {
  const client = postgres(url, { max: 10, onnotice: () => {} });
  let sent: Sent[] = [];
  // The depth of the answer that arrived last: whatever is sent next was sent after it.
  let lastAnswered = 0;

  const record = (text: string) => {
    const statement = { text, depth: lastAnswered + 1 };
    sent.push(statement);
    return () => void (lastAnswered = statement.depth);
  };

  /** A postgres.js handle as this wrapper sees it: its statements, transactions and savepoints. */
  type Work = (handle: Handle) => Promise<unknown>;
  type Handle = {
    unsafe: (...args: unknown[]) => PromiseLike<unknown>;
    begin?: (...args: unknown[]) => Promise<unknown>;
    savepoint?: (...args: unknown[]) => Promise<unknown>;
  };
  const watch = <H>(sql: H): H => {
    const handle = sql as unknown as Handle;
    const unsafe = handle.unsafe.bind(handle);
    handle.unsafe = (...args: unknown[]) => {
      const query = unsafe(...args);
      const answered = record(String(args[0]));
      const then = query.then.bind(query);
      // The caller's continuation runs after the answer is recorded.
      query.then = ((resolve, reject) =>
        then(
          (value) => {
            answered();
            return resolve ? resolve(value) : value;
          },
          (error) => {
            answered();
            if (reject) return reject(error);
            throw error;
          },
        )) as typeof query.then;
      return query;
    };
    const begin = handle.begin?.bind(handle);
    if (begin)
      handle.begin = async (...args: unknown[]) => {
        const work = args.pop() as Work;
        record("begin")();
        try {
          return await begin(...args, (tx: Handle) => work(watch(tx)));
        } finally {
          record("commit")();
        }
      };
    const savepoint = handle.savepoint?.bind(handle);
    if (savepoint)
      handle.savepoint = async (...args: unknown[]) => {
        const work = args.pop() as Work;
        record("savepoint")();
        return savepoint(...args, (tx: Handle) => work(watch(tx)));
      };
    return sql;
  };

  const db = drizzle(watch(client), { schema }) as unknown as Db;
  return {
    db,
    /** Forgets what was sent so far: the next statements are counted from nothing. */
    reset: () => {
      sent = [];
      lastAnswered = 0;
    },
    sent: () => [...sent],
    statements: () => sent.length,
    rounds: () => Math.max(0, ...sent.map((statement) => statement.depth)),
    end: () => client.end({ timeout: 5 }),
  };
}
