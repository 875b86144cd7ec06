import type { useRouter } from "next/navigation";
import { refreshSessionAction } from "@/app/(auth)/actions";

type Router = Pick<ReturnType<typeof useRouter>, "push" | "replace">;

/**
 * Client side: brings the session cookie's flags up to date (the route guard reads them), then
 * navigates. A failed refresh never keeps the user on the page: the layouts behind the guard
 * re-read the flags from the database anyway.
 */
export async function leaveWithFreshSession(router: Router, to: string, { replace = false }: { replace?: boolean } = {}): Promise<void> {
  await refreshSessionAction().catch((error: unknown) => console.error("[auth] session refresh failed", error));
  if (replace) router.replace(to);
  else router.push(to);
}
