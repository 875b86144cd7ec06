/**
 * What the bench must undo however it ends (servers to stop, databases to drop): steps are
 * registered as they are made and run once, last first, at the end, on failure and on Ctrl-C.
 */

const steps: (() => unknown)[] = [];
let cleaning: Promise<void> | undefined;

export function onCleanup(step: () => unknown): void {
  steps.push(step);
}

export function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const step of steps.reverse()) {
      try {
        await step();
      } catch (error) {
        console.error(`cleanup: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  })();
  return cleaning;
}

/** Ctrl-C and kill stop the servers and drop the databases before the process ends. */
export function cleanUpOnSignals(): void {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      console.error(`\n${signal}: stopping the server and dropping the database...`);
      void cleanup().finally(() => process.exit(130));
    });
  }
}
