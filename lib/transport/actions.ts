import type { ActionFailure } from "@/lib/http/action-result";

/** Section 8's text for a call that got no answer, where the form has none of its own. */
const NO_ANSWER = "Network error";

/**
 * Calls a server action from the browser. A call that never completes (the network dropped, the
 * server was unreachable, a body it refused) rejects rather than answering: read here as a failure
 * with `message`, so every caller says so and frees its busy control, as for a refusal.
 */
export async function reach<T>(call: () => Promise<T>, message = NO_ANSWER): Promise<T | ActionFailure> {
  try {
    return await call();
  } catch {
    return { ok: false, code: "NETWORK_ERROR", message };
  }
}
