import "server-only";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { auth } from "./auth";
import { accountFlags, type AccountFlags } from "./users";

/**
 * For guarded pages: the live session and the account's flags read from the rows, since the
 * cookie's copy can be stale. Redirects when there is no live session.
 */
export async function requireSignedIn(): Promise<{ userId: string } & AccountFlags> {
  const session = await auth();
  if (!session?.claims.sub) redirect("/login");
  const flags = await accountFlags(await getDb(), session.claims.sub);
  if (!flags) redirect("/signout");
  if (!flags.emailVerified) redirect("/verify-email");
  return { userId: session.claims.sub, ...flags };
}
