/** The browser's calls to the account API, through the transport (lib/transport/client.ts). */
import "client-only";
import { api } from "@/lib/transport/client";

/** Deletes the account for good (its password confirms it). */
export async function deleteAccount(password: string): Promise<void> {
  await api("/api/account", { method: "DELETE", body: { password } });
}
