/**
 * `BENCH_SECTIONS=hostile`: the event loop while the hostile-input corpus runs beside normal
 * traffic, in process as one server instance runs its requests: on one thread. Normal traffic is a
 * steady stream of ordinary inputs through the same schemas and renderers (a sign-up, a reply, a
 * search); the hostile stream puts every corpus string into every schema's string fields at their
 * limit and far past it, and through every text renderer (tests/support/hostile-input.ts, the
 * adversarial test's corpus). Each item is one turn of the loop, as a request would be.
 * Figures: the event-loop delay (perf_hooks' monitorEventLoopDelay, 10 ms resolution) median, p99
 * and max, for normal traffic alone and with the hostile stream beside it, and the slowest single
 * hostile item. Work that grows faster than its input shows as a p99 of seconds.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setImmediate as nextTurn } from "node:timers/promises";
import { registrationPayloadSchema } from "@/lib/registration/schemas";
import { excerpt, renderBody } from "@/lib/plain-text";
import { HOSTILE_RENDERERS, HOSTILE_UNITS, allSchemas, hostile, inputs } from "@/tests/support/hostile-input";
import { printTable } from "./report";

/** Milliseconds each run of normal traffic lasts (BENCH_HOSTILE_S seconds, 10 by default). */
const RUN_MS = Number(process.env.BENCH_HOSTILE_S ?? 10) * 1000;
/** The budget the p99 delay is held to with the hostile stream beside normal traffic. */
const P99_BUDGET_MS = 100;

const NORMAL_REPLY = "See https://example.com/tiles (the Alfama walk). @Marisol & Thaddeus, shall we meet at 10?\n\nBring water!";
const NORMAL_SIGN_UP = {
  email: "marisol.okafor@example.com",
  password: "Str0ng-Passw0rd!",
  confirmPassword: "Str0ng-Passw0rd!",
  firstName: "Marisol",
  lastName: "Okafor",
  dateOfBirth: "1992-04-12",
};

/** One ordinary request's text work. */
function normalItem(): void {
  registrationPayloadSchema.safeParse(NORMAL_SIGN_UP);
  renderBody(NORMAL_REPLY, [{ coupleId: "c1", name: "Marisol & Thaddeus" }]);
  excerpt(NORMAL_REPLY);
}

/** The hostile items, one per schema input and per renderer and corpus string, built lazily. */
async function* hostileItems(): AsyncGenerator<{ label: string; run: () => unknown }> {
  const schemas = await allSchemas({ serverOnly: true });
  for (const entry of HOSTILE_UNITS) {
    const cache = new Map<number, string>();
    const make = (length: number) => cache.get(length) ?? cache.set(length, hostile(entry, length)).get(length)!;
    for (const [name, schema] of schemas)
      for (const input of inputs(schema, make)) yield { label: `${name} (${entry.name})`, run: () => schema.safeParse(input) };
    for (const [name, render] of HOSTILE_RENDERERS) yield { label: `${name} (${entry.name})`, run: () => render(make) };
  }
}

type Delay = { median: number; p99: number; max: number; items: number };

/** Normal traffic for RUN_MS, with the hostile stream beside it when asked; the loop's delay meanwhile. */
async function run(withHostile: boolean): Promise<{ delay: Delay; slowest: { label: string; ms: number } }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  const slowest = { label: "", ms: 0 };
  let items = 0;
  const until = performance.now() + RUN_MS;
  histogram.enable();
  const normal = (async () => {
    while (performance.now() < until) {
      normalItem();
      items++;
      await nextTurn();
    }
  })();
  const hostileStream = (async () => {
    if (!withHostile) return;
    // Round after round of the whole corpus until the run ends.
    while (performance.now() < until) {
      for await (const item of hostileItems()) {
        if (performance.now() >= until) return;
        const t0 = performance.now();
        item.run();
        const ms = performance.now() - t0;
        if (ms > slowest.ms) Object.assign(slowest, { label: item.label, ms });
        await nextTurn();
      }
    }
  })();
  await Promise.all([normal, hostileStream]);
  histogram.disable();
  const ms = (ns: number) => ns / 1e6;
  return {
    delay: { median: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), items },
    slowest,
  };
}

export async function benchHostile(): Promise<number> {
  console.log(`\nHostile input beside normal traffic, in process (${RUN_MS / 1000} s per run; BENCH_HOSTILE_S):`);
  const alone = await run(false);
  const beside = await run(true);
  const row = (name: string, d: Delay) => [name, String(d.items), d.median.toFixed(1), d.p99.toFixed(1), d.max.toFixed(1)];
  printTable(
    ["event-loop delay", "normal items", "median", "p99", "max (ms)"],
    [row("normal alone", alone.delay), row("normal + hostile", beside.delay)],
  );
  console.log(`  slowest hostile item: ${beside.slowest.label}, ${beside.slowest.ms.toFixed(1)} ms`);
  const over = beside.delay.p99 > P99_BUDGET_MS;
  console.log(`  p99 with the hostile stream: ${over ? "OVER" : "within"} the ${P99_BUDGET_MS} ms budget`);
  return over ? 1 : 0;
}
