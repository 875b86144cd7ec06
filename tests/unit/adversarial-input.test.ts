/**
 * No work grows faster than input (the guide): every schema's string fields and every text
 * renderer get the hostile corpus at their maximum length (and far past it, where the length
 * check must stop them first), and none may take more than 50 ms of CPU.
 */
import { describe, expect, it } from "vitest";
import { CPU_BUDGET_MS, cpuMillis } from "@/tests/support/cpu";
import { HOSTILE_RENDERERS, HOSTILE_UNITS, allSchemas, hostile, inputs } from "@/tests/support/hostile-input";

/** The slowest of the hostile units on `run`, with its name (measured again when one run is slow). */
function slowest(run: (make: (length: number) => string) => void): { name: string; ms: number } {
  let worst = { name: "", ms: 0 };
  for (const entry of HOSTILE_UNITS) {
    const make = (length: number) => hostile(entry, length);
    const start = process.cpuUsage();
    run(make);
    const used = process.cpuUsage(start);
    let ms = (used.user + used.system) / 1000;
    // One slow run may be a garbage collection: the best of three decides.
    if (ms > CPU_BUDGET_MS) ms = cpuMillis(() => run(make));
    if (ms > worst.ms) worst = { name: entry.name, ms };
  }
  return worst;
}

const schemas = await allSchemas();

describe("hostile input at every schema's string fields", () => {
  it("finds the schemas", () => {
    expect(schemas.length).toBeGreaterThan(30);
  });

  it.each(schemas)("%s parses every hostile field within 50 ms of CPU", (_name, schema) => {
    // One field at a time, each at its limit and far past it: the worst single parse counts.
    let worst = { name: "", ms: 0 };
    for (const entry of HOSTILE_UNITS) {
      const cache = new Map<number, string>();
      const make = (length: number) => cache.get(length) ?? cache.set(length, hostile(entry, length)).get(length)!;
      for (const input of inputs(schema, make)) {
        const start = process.cpuUsage();
        schema.safeParse(input);
        const used = process.cpuUsage(start);
        let ms = (used.user + used.system) / 1000;
        if (ms > CPU_BUDGET_MS) ms = cpuMillis(() => schema.safeParse(input));
        if (ms > worst.ms) worst = { name: entry.name, ms };
      }
    }
    expect(worst.ms, `worst: ${worst.name}`).toBeLessThan(CPU_BUDGET_MS);
  });
});

describe("hostile input at every text renderer", () => {
  it.each(HOSTILE_RENDERERS)("%s stays within 50 ms of CPU", (_name, render) => {
    const worst = slowest(render);
    expect(worst.ms, `worst: ${worst.name}`).toBeLessThan(CPU_BUDGET_MS);
  });
});
