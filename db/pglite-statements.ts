import { parse, protocol, type PGlite, type QueryOptions, type Results } from "@electric-sql/pglite";

/** A PGlite whose registered queries run as named (server-side prepared) statements. */
export type NamingPGlite = PGlite & { nameStatement: (text: string) => void };

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
};

function failure(messages: { name: string }[]): void {
  const error = messages.find((message) => message.name === "error");
  if (error) throw error;
}

/**
 * PGlite parses and plans every `query()` afresh, in the request's own thread: for the current
 * user's 4-table join that was ~1 ms of the ~1.5 ms the query took. Queries registered with
 * `nameStatement` (db/prepared.ts: the hot reads) are parsed once as a named statement and then
 * only bound and executed, in one protocol call, under the same locks as `query()`. Anything
 * else goes to PGlite as before. Meant for reads: no blob handling, and no file-system sync
 * (query()'s is a no-op on the memory and Node file systems this app uses).
 */
export function withNamedStatements(client: PGlite): NamingPGlite {
  const names = new Map<string, string>();
  const prepared = new Map<string, number[]>();
  const { serialize } = protocol;

  async function paramTypes(name: string, text: string): Promise<number[]> {
    const known = prepared.get(name);
    if (known) return known;
    const { messages } = await client.execProtocol(
      concat(serialize.parse({ name, text }), serialize.describe({ type: "S", name }), serialize.sync()),
      {
        throwOnError: false,
      },
    );
    failure(messages);
    const types = parse.parseDescribeStatementResults(messages);
    prepared.set(name, types);
    return types;
  }

  async function query<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    const name = names.get(text);
    if (!name) return client.query<T>(text, params, options);
    // As query(): after any open transaction, one statement at a time.
    return client._runExclusiveTransaction(() =>
      client.runExclusive(async () => {
        const types = await paramTypes(name, text);
        const values = params.map((value, i) => {
          if (value === null || value === undefined) return null;
          const serializer = options?.serializers?.[types[i]!] ?? client.serializers[types[i]!];
          return serializer ? serializer(value) : String(value);
        });
        const message = concat(
          serialize.bind({ statement: name, values }),
          serialize.describe({ type: "P" }),
          serialize.execute({}),
          serialize.sync(),
        );
        const { messages } = await client.execProtocol(message, { throwOnError: false });
        failure(messages);
        return parse.parseResults(messages, client.parsers, options)[0] as Results<T>;
      }),
    );
  }

  const nameStatement = (text: string) => {
    if (!names.has(text)) names.set(text, `app_statement_${names.size + 1}`);
  };
  return new Proxy(client, {
    get(target, property) {
      if (property === "query") return query;
      if (property === "nameStatement") return nameStatement;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  }) as NamingPGlite;
}
