import "server-only";
import type { Db } from "@/db/client";
import { couplePartners } from "@/lib/membership/partner";
import type { SafetyReactions, Sanctioned } from "@/lib/safety/reactions";
import { createNotifications } from "./service";
import { moderation } from "./types/moderation";

/** Both partners of the couple get the notice, in the app and by e-mail (as each chose for the type). */
async function tellCouple(tx: Db, sanction: Sanctioned, text: { title: string; message: string }): Promise<void> {
  const partners = await couplePartners(tx, sanction.coupleId);
  await createNotifications(
    tx,
    partners.map((userId) => ({ userId, type: "moderation" as const, title: text.title, message: text.message })),
  );
}

/** Notifications' reactions to moderators' decisions (listed in lib/registry/safety.ts). */
export const notificationsSafety: SafetyReactions = {
  sanctioned: (tx, sanction) => tellCouple(tx, sanction, moderation.text.sanctioned(sanction)),
  lifted: (tx, sanction) => tellCouple(tx, sanction, moderation.text.lifted(sanction.kind)),
  appealRefused: (tx, sanction) => tellCouple(tx, sanction, moderation.text.appealRefused(sanction.kind)),
};
