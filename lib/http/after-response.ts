import "server-only";
import { after } from "next/server";

/**
 * Runs `task` once the response has been sent (on Vercel the function is kept alive for it:
 * waitUntil), so a request never waits for work its answer does not need. False outside a
 * request (a script, a test), where nothing would run it later: the caller decides what then.
 */
export function afterResponse(task: () => Promise<unknown>): boolean {
  try {
    after(task);
    return true;
  } catch {
    return false;
  }
}
