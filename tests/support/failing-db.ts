import { getDb } from "@/db/client";

/** The database, except that each transaction does all its work and then fails, as a crash before commit would. */
export async function failingDb() {
  const db = await getDb();
  return new Proxy(db, {
    get(target, key, receiver) {
      if (key !== "transaction") return Reflect.get(target, key, receiver);
      return (run: (tx: unknown) => Promise<unknown>) =>
        target.transaction(async (tx) => {
          const result = await run(tx);
          await tx.execute("select 1/0");
          return result;
        });
    },
  });
}
