import postgres from "postgres";

/**
 * Two requests at one instant, in the order that loses, made certain: a second connection holds a
 * row, the code under test is started and waits on it, then the holder commits. Postgres only (a
 * PGlite database has one connection); each test file's own database (DATABASE_URL).
 */

const connect = () => postgres(process.env.DATABASE_URL!, { max: 2, onnotice: () => {} });

/** Waits (bounded: 10 s) until `waiting` sessions of this database wait on a lock, or `settled()`: code that takes no lock never waits. */
export async function lockWaits(waiting: number, settled: () => boolean = () => false): Promise<void> {
  const sql = connect();
  try {
    for (let tries = 0; tries < 400 && !settled(); tries++) {
      const [row] =
        await sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
      if (row!.n >= waiting) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/**
 * Runs `hold` in a transaction on a second connection, starts `calls`, commits once `waiting` of
 * them wait on a lock (or all have answered), and answers what each call answered.
 */
export async function whileHeld<T>(
  hold: (tx: postgres.ReservedSql) => Promise<unknown>,
  calls: (() => Promise<T>)[],
  waiting = calls.length,
) {
  return (await holding(hold, calls, waiting)).answers;
}

/** Whether `call` waits on what `hold` takes on a second connection (false: it answered while that was held), and its answer. */
export async function waitsOn<T>(hold: (tx: postgres.ReservedSql) => Promise<unknown>, call: () => Promise<T>) {
  const { answers, answeredWhileHeld } = await holding(hold, [call], 1);
  return { waited: answeredWhileHeld === 0, answer: answers[0]! };
}

/**
 * `hold` on a second connection, `call` started and waiting on it, then `next` on the holder (what
 * that transaction does next) before it commits. With a NOWAIT lock `next` fails at once if it
 * would wait on what `call` took meanwhile: the two waiting each for the other, a deadlock.
 * Answers whether `call` waited on `hold`, and its answer.
 */
export async function nextWhileWaiting<T>(
  hold: (tx: postgres.ReservedSql) => Promise<unknown>,
  call: () => Promise<T>,
  next: (tx: postgres.ReservedSql) => Promise<unknown>,
) {
  const { answers, answeredWhileHeld } = await holding(hold, [call], 1, next);
  return { waited: answeredWhileHeld === 0, answer: answers[0]! };
}

async function holding<T>(
  hold: (tx: postgres.ReservedSql) => Promise<unknown>,
  calls: (() => Promise<T>)[],
  waiting: number,
  next?: (tx: postgres.ReservedSql) => Promise<unknown>,
) {
  const other = connect();
  try {
    const holder = await other.reserve();
    await holder`begin`;
    await hold(holder);
    let answered = 0;
    const pending = calls.map((run) => run().finally(() => answered++));
    await lockWaits(waiting, () => answered === calls.length);
    const answeredWhileHeld = answered;
    if (next)
      await next(holder).catch(async (error: unknown) => {
        await holder`rollback`;
        throw error;
      });
    await holder`commit`;
    holder.release();
    return { answers: await Promise.all(pending), answeredWhileHeld };
  } finally {
    await other.end({ timeout: 1 });
  }
}

/**
 * A write held part-way while `action` runs: `write` is started and waits on what `hold` takes on
 * a second connection (after the checks it read), then `action` runs; the holder commits once
 * `action` has answered, or waits too (on the write). Answers both answers and whether `action`
 * waited for the write (false: it committed while the write was held, so a write that then
 * succeeds committed after it, on what it read before).
 */
export async function whileWriteHeld<W, A>(
  hold: (tx: postgres.ReservedSql) => Promise<unknown>,
  write: () => Promise<W>,
  action: () => Promise<A>,
) {
  let [written, acted] = [false, false];
  const other = connect();
  try {
    const holder = await other.reserve();
    await holder`begin`;
    await hold(holder);
    const writing = write().finally(() => (written = true));
    await lockWaits(1, () => written);
    const acting = action().finally(() => (acted = true));
    await lockWaits(2, () => acted);
    const actionWaited = !acted;
    await holder`commit`;
    holder.release();
    return { write: await writing, action: await acting, actionWaited };
  } finally {
    await other.end({ timeout: 1 });
  }
}

/** `hold` on a second connection, its transaction open while `body` runs, committed after. */
export async function whileHolding<T>(hold: (tx: postgres.ReservedSql) => Promise<unknown>, body: () => Promise<T>): Promise<T> {
  const other = connect();
  try {
    const holder = await other.reserve();
    await holder`begin`;
    await hold(holder);
    const answer = await body();
    await holder`commit`;
    holder.release();
    return answer;
  } finally {
    await other.end({ timeout: 1 });
  }
}
