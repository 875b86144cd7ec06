import type { Metadata } from "next";
import { BlockedCouples } from "@/components/settings/BlockedCouples";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { forumActor } from "@/lib/forum/queries";
import { listBlocks } from "@/lib/safety/blocks";
import { withDb } from "@/lib/with-db";

export const metadata: Metadata = { title: "Blocked couples" };

export default async function BlockedSettingsPage() {
  const { userId } = await requireCompleteProfile();
  const blocked = await withDb(async (db) => listBlocks(db, await forumActor(db, userId)));
  return (
    <main id="main">
      <h1>Blocked couples</h1>
      <BlockedCouples initial={blocked} />
    </main>
  );
}
