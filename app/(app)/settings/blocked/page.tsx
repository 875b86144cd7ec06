import type { Metadata } from "next";
import { BlockedCouples } from "@/components/settings/BlockedCouples";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { listBlocks } from "@/lib/safety/block-list";
import { withDb } from "@/lib/with-db";

export const metadata: Metadata = { title: "Blocked couples" };

export default async function BlockedSettingsPage() {
  const { couple } = await requireCompleteProfile();
  const page = await withDb((db) => listBlocks(db, couple));
  return (
    <main id="main">
      <h1>Blocked couples</h1>
      <BlockedCouples page={page} />
    </main>
  );
}
