import "server-only";
import { headers } from "next/headers";
import { unstable_rethrow } from "next/navigation";
import { getDb, type Db } from "@/db/client";
import { auth } from "@/lib/auth/auth";
import { requireActionUserId } from "@/lib/auth/current-session";
import { assertAccess, NOTHING_GRANTED, type Access, type CallerFor, type CoupleFor, type Granted, type ModeratorFor } from "./access";
import { actionFailure, type ActionResult } from "./action-result";
import { clientAddress } from "./client-address";
import { AppError } from "@/lib/errors";

/** A server action's caller: the browser session's account. */
export type ActionCaller = { userId: string };

export type ActionContext<A extends Access, I> = {
  db: Db;
  caller: CallerFor<A, ActionCaller>;
  /** The caller's acting couple: every `complete-profile` action has one. */
  couple: CoupleFor<A>;
  /** The moderator calling, with their own couple: every `moderator` and `admin` action has one. */
  moderator: ModeratorFor<A>;
  input: I;
  /** The caller's address as the deployment vouches for it, for per-address limits (lib/http/client-address.ts). */
  clientAddress: string;
};

export type ActionOptions<A extends Access, Args extends unknown[], I> = {
  access: A;
  /** Turns the action's arguments into its validated input (a domain schema's parse; may read files). */
  input?: (...args: Args) => I | Promise<I>;
  /** The form's message for an unexpected error. */
  failure?: string;
};

/** The caller, checked as the access asks, with their acting couple or the moderator where the access needs one. */
async function callerFor(access: Access, db: Db): Promise<Granted & { caller: ActionCaller | null }> {
  if (access === "public") return { caller: null, ...NOTHING_GRANTED };
  if (access === "optional") {
    const userId = (await auth())?.claims.sub;
    return { caller: userId ? { userId } : null, ...NOTHING_GRANTED };
  }
  const caller = { userId: await requireActionUserId() };
  return { caller, ...(await assertAccess(db, access, caller.userId)) };
}

/**
 * Declares a server action: who may call it and how its arguments become its input. The wrapper
 * opens the database, checks the caller, then reads the input (so a signed-out call is refused
 * whatever it sent), and hands back `{ ok: true, ...answer }` or the form's failure: never a
 * thrown error. Next.js's own signals (redirect, notFound) still pass through.
 */
export function action<A extends Access, T extends object, Args extends unknown[] = [], I = undefined>(
  options: ActionOptions<A, Args, I>,
  handler: (context: ActionContext<A, I>) => Promise<T>,
): (...args: Args) => Promise<ActionResult<T>> {
  return async (...args) => {
    try {
      const db = await getDb();
      const found = await callerFor(options.access, db);
      const caller = found.caller as CallerFor<A, ActionCaller>;
      const couple = found.couple as CoupleFor<A>;
      const moderator = found.moderator as ModeratorFor<A>;
      const input = (options.input ? await options.input(...args) : undefined) as I;
      const address = clientAddress(await headers());
      return { ok: true, ...(await handler({ db, caller, couple, moderator, input, clientAddress: address })) };
    } catch (error) {
      unstable_rethrow(error);
      return actionFailure(error, options.failure);
    }
  };
}

/**
 * A form action's argument as the form it must be: a hand-made call that sent anything else is
 * answered as a refused form (400), not as a failure of ours.
 */
export function formArgument(value: unknown): FormData {
  if (value instanceof FormData) return value;
  throw new AppError("VALIDATION_ERROR", "The form could not be read. Please try again.");
}
