import "server-only";
import { and, eq, getTableColumns, gt, inArray, lt, not, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, forumPhotos, forumPosts, locations, notifications, stagedPhotos, users } from "@/db/schema";
import { confirmPassword } from "@/lib/auth/account-security";
import { liftSignInLocks } from "@/lib/auth/credentials";
import { lockCoupleOf, partnerOf, partnersWhere, unprovenPartner } from "@/lib/membership/partner";
import { userNotFound } from "@/lib/errors";
import { storedImageKey } from "@/lib/images/lifecycle";
import { writeDeletingImages } from "@/lib/images/undeleted";
import { describeError } from "@/lib/log";
import { forgetHitsOf } from "@/lib/rate-limit";
import type { ImageStorage } from "@/lib/storage";
import { couplesOfConversations, ofCouple } from "@/lib/messages/access";
import { eraseMember, forgetReadReceipts, readReceiptHolders } from "@/lib/messages/service";
import { cancelPlansOfCouple, erasePlanWordsOf } from "@/lib/plans/ending";
import { acceptHellosAnswered, eraseRequestNotes } from "@/lib/connections/service";
import { eraseDraftsOf } from "@/lib/events/service";
import { uncountTopReactionsOf } from "@/lib/forum/top";
import { forgetInvitee } from "@/lib/invitations/manage";
import { partner2, partner2Unproven, releaseUnprovenPartner } from "@/lib/invitations/send";
import { deleteMailAbout } from "@/lib/mail/outbox";
import { withdrawNotifications } from "@/lib/notifications/service";
import { eraseAppealsOf } from "@/lib/safety/appeals";
import { anonymiseReportsOf, eraseReportedWordsOf } from "@/lib/safety/reports";
import { selfieKeysOf } from "@/lib/verification/queries";

export type DeletionOutcome = {
  /** What became of the couple: it stays with the partner, or it went with its last partner (or there was none). */
  couple: "kept-with-partner" | "deleted" | "none";
  /** The files removed from storage after the commit. */
  removedImages: number;
};

/** Passes of lockPersonBesidePartner at most: each after the first follows a notice that came while it waited. */
const LOCK_PASSES = 3;

/**
 * The person's row for update, and key-share, in one id order with it, their partner's (the
 * couple's foreign key to them), the rows of those their notifications went to (whose bells
 * the deletion tells as it withdraws them, last: a live row's foreign key) and the people of
 * their couple's conversations (told of its plans cancelled and of their messages erased): two
 * deletions at one instant, of partners, of two people who notified each other or of members of
 * two couples who talk, then wait one for the other, never each holding its own row (or a plan)
 * while waiting on the other's. A partner who joined between the
 * two reads is not held: Postgres ends one of the two writes that then wait on each other, and
 * db/transaction.ts runs it again. Nor is a partner 2 who never proved the address: they never
 * become partner A but are released, their row locked after the couple's (releaseUnprovenPartner),
 * as an invitation's send takes them; held before, the deletion waited on partner A's row holding
 * the one that send takes next, and the two deadlocked.
 */
async function lockPersonBesidePartner(tx: Db, userId: string) {
  const [couple] = await tx
    .select({ id: couples.id, p1: couples.partner1Id, p2: couples.partner2Id, partner2Unproven })
    .from(couples)
    .leftJoin(partner2, eq(partner2.id, couples.partner2Id))
    .where(partnerOf(userId));
  const partnerId = !couple ? null : couple.p1 !== userId ? couple.p1 : couple.partner2Unproven ? null : couple.p2;
  const told = and(
    inArray(users.id, tx.select({ id: notifications.userId }).from(notifications).where(eq(notifications.actorUserId, userId))),
    not(unprovenPartner(users)),
  )!;
  // The people of their couple's conversations: its plans cancelled and their messages erased tell all four.
  const talkedWith = couple ? partnersWhere(couplesOfConversations(ofCouple(couple.id))) : undefined;
  const beside = or(partnerId ? eq(users.id, partnerId) : undefined, told, talkedWith)!;
  const holdBeside = (side: SQL) => tx.select({ id: users.id }).from(users).where(and(beside, side)).orderBy(users.id).for("key share");
  const below = lt(users.id, userId);
  for (let pass = 1; ; pass++) {
    await tx.execute(sql`savepoint person_locks`);
    const held = new Set((await holdBeside(below)).map((row) => row.id));
    const [person] = await tx
      .select({ avatarUrl: users.avatarUrl, email: users.email })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!person) throw userNotFound();
    // A notice of theirs on its way as the first read ran (its foreign key key-shared their row,
    // which the lock just waited for) may name someone below them that read did not see, else
    // held only at the commit (its bell), out of order. Their row is let go and all taken again, in
    // order; no notice of theirs comes while it is held. After a few passes, as before: Postgres
    // ends a deadlock and db/transaction.ts runs the deletion again.
    const missed = (await tx.select({ id: users.id }).from(users).where(and(beside, below))).some((row) => !held.has(row.id));
    if (missed && pass < LOCK_PASSES) {
      await tx.execute(sql`rollback to savepoint person_locks`);
      continue;
    }
    await tx.execute(sql`release savepoint person_locks`);
    await holdBeside(gt(users.id, userId));
    return person;
  }
}

/**
 * 'Delete my account' (after the password): in one transaction the person's rows go (their
 * user row, and through it sessions, tokens, notifications, reactions, choices, uploads), the
 * notifications and waiting pushes others got about what they did (their names are in them:
 * push_outbox.actor_user_id cascades), their place, their
 * photos, the e-mails addressed to them or naming them and the invitations that named them; their posts and
 * replies stay, signed "Deleted member" (the author column is set to null); their messages and
 * their hellos (the notes of their connection requests, and the held ones) and their words in
 * plans (a proposal's note, a reason for cancelling), their event drafts, the copies of those words kept with reports,
 * and their appeals are erased (an appeal stays,
 * the couple's one appeal of its action); the reports they filed stay for the moderators, without
 * their name or their note (lib/safety/reports.ts anonymiseReportsOf). A partner 2 who never proved the
 * address (lib/invitations/send.ts partner2Unproven) does not stay: they are released. If their
 * partner stays, the couple stays with that partner alone as
 * its partner A: it can invite again, and its badge is 'Beta Member' again. If nobody stays, the
 * couple goes too, with its place and its photos; the couple's posts and replies stay, signed
 * "Deleted member" (their couple column is set to null), so nobody else's replies to them go
 * (guide: deleting an account takes nobody else's words), and so do the hellos other couples sent
 * it, their senders', to a "Deleted couple" (lib/connections/rules.ts SentFacts). The files are removed from
 * storage only after the commit (a database that rolled back keeps its images), and are recorded
 * in its transaction for the due work to remove, should that fail or never come.
 * Afterwards the e-mail address is free to register again, and no failed sign-in names it; the
 * hellos their partner accepted while 'Both of us approve' waited for them are accepted.
 */
export async function deleteAccount(
  db: Db,
  userId: string,
  password: string,
  options: { storage?: ImageStorage } = {},
): Promise<DeletionOutcome> {
  await confirmPassword(db, userId, password);
  // The couple its partner keeps, as the committed attempt found it (a retried one finds it again).
  let keptCouple: string | null = null;
  // The couple that went with its last partner, likewise (its id counts its hellos against limits).
  let goneCouple: string | null = null;
  // Whose live history may show where they read up to, as the committed attempt found them.
  let seenBy: string[] = [];
  const outcome = await writeDeletingImages(
    db,
    async (tx) => {
      // Their row, then their couple: the order a profile or onboarding save, a join and a moderator's
      // action (lib/safety/sanctions.ts lockedCouple) take them. FOR UPDATE: nothing may reference the
      // person until this ends (a post written meanwhile in another tab would keep its photos).
      // Their partner's row with it, in id order: the couple comes to name the partner as its
      // partner A, and the partners' rows come before the couple (holdPartnersOf).
      const person = await lockPersonBesidePartner(tx, userId);
      // Then read with its partner 2: one who joined meanwhile through the shareable link is released, not left holding the couple.
      await lockCoupleOf(tx, userId);
      const [row] = await tx
        .select({ ...getTableColumns(couples), partner2Unproven })
        .from(couples)
        .leftJoin(partner2, eq(partner2.id, couples.partner2Id))
        .where(partnerOf(userId))
        .for("update", { of: couples });
      // Their reactions go with their row: Top stops counting them now, not at the next day's rebuild.
      // Before any post is written: Top's window first, then posts, as its move and rebuild take them.
      await uncountTopReactionsOf(tx, userId);
      const uploads = await tx.select({ url: forumPhotos.url }).from(forumPhotos).where(eq(forumPhotos.ownerUserId, userId));
      const postPhotos = await tx.select({ photos: forumPosts.photos }).from(forumPosts).where(eq(forumPosts.authorUserId, userId));
      // Photos uploaded ahead of a save that never came (their rows go with the user's).
      const staged = await tx.select({ url: stagedPhotos.url }).from(stagedPhotos).where(eq(stagedPhotos.ownerUserId, userId));
      const stillShown: (string | null)[] = [];
      const urls: (string | null)[] = [
        person.avatarUrl,
        ...uploads.map((u) => u.url),
        ...staged.map((s) => s.url),
        ...postPhotos.flatMap((p) => p.photos),
      ];
      // The posts stay, their photos (the person's images) do not.
      await tx.update(forumPosts).set({ photos: [] }).where(eq(forumPosts.authorUserId, userId));

      // A partner 2 who never proved the address does not fill the couple (partner2Unproven) and
      // cannot sign in: they do not keep it, they go first, as partner A's 'Cancel' removes them.
      const released =
        row?.partner1Id === userId && row.partner2Id && row.partner2Unproven
          ? await releaseUnprovenPartner(tx, { id: row.id, partner2Id: row.partner2Id })
          : false;
      const partnerId = row && !released ? (row.partner1Id === userId ? row.partner2Id : row.partner1Id) : null;
      keptCouple = row && partnerId ? row.id : null;
      goneCouple = row && !partnerId ? row.id : null;
      // Their couple's upcoming plans can no longer take place (the others are told, before the person's rows go).
      if (row) await cancelPlansOfCouple(tx, row.id, [userId]);
      // Their messages are erased ('Deleted member'); their couple's conversations end only if no partner remains.
      // A selfie still waiting for a moderator goes with its file (its row goes with the user's).
      const messageKeys = [...(await eraseMember(tx, userId, row?.id ?? null, !partnerId)), ...(await selfieKeysOf(tx, userId))];
      seenBy = await readReceiptHolders(tx, userId);
      // The words kept with reports of theirs, and of their couple when it goes with them.
      await eraseReportedWordsOf(tx, userId, row ? { id: row.id, erased: !partnerId } : null);
      // The reports they filed stay for the moderators, without them (nor their note).
      await anonymiseReportsOf(tx, userId);
      await eraseRequestNotes(tx, userId, row?.id ?? null);
      await erasePlanWordsOf(tx, userId);
      // Their event drafts (their partner's stay with the couple).
      await eraseDraftsOf(tx, userId);
      // Their address and names as partner A typed them in the invitation they accepted.
      if (row && row.partner2Id === userId) await forgetInvitee(tx, row.id, person.email);
      await deleteMailAbout(tx, userId);
      // Failed sign-ins count against the address itself (lib/auth/credentials.ts): it goes with them.
      await liftSignInLocks(tx, person.email);

      // Their appeals' words go with them; each appeal stays, the couple's one appeal of its action.
      await eraseAppealsOf(tx, userId);

      let outcome: DeletionOutcome["couple"] = "none";
      if (row) {
        if (partnerId) {
          outcome = "kept-with-partner";
          // What the couple and the partner still show stays: a person may take a couple photo as their avatar.
          const [partner] = await tx.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, partnerId));
          stillShown.push(row.profileImageUrl, ...row.photos, partner?.avatarUrl ?? null);
          // The one who stays is partner A from now on (partner1's foreign key would take the
          // couple with it): the couple can invite a partner B again, and is not verified.
          await tx
            .update(couples)
            .set({
              partner1Id: partnerId,
              partner2Id: null,
              partnerAVerified: row.partner1Id === userId ? row.partnerBVerified : row.partnerAVerified,
              partnerBVerified: false,
              isVerified: false,
            })
            .where(eq(couples.id, row.id));
        } else {
          outcome = "deleted";
          urls.push(row.profileImageUrl, ...row.photos);
          await tx.delete(locations).where(and(eq(locations.entityType, "couple"), eq(locations.entityId, row.id)));
          await tx.delete(couples).where(eq(couples.id, row.id));
        }
      }
      // Notifications about what the person did name them in their title and quote them: they go
      // with the person (the actor column alone would only be cleared), their recipients' bells recounted.
      await withdrawNotifications(tx, eq(notifications.actorUserId, userId));
      await tx.delete(locations).where(and(eq(locations.entityType, "user"), eq(locations.entityId, userId)));
      await tx.delete(users).where(eq(users.id, userId));
      const kept = new Set(stillShown.filter((url) => url !== null));
      const keys = [
        ...new Set([
          ...urls.flatMap((url) => {
            const key = url && !kept.has(url) ? storedImageKey(url) : null;
            return key ? [key] : [];
          }),
          ...messageKeys,
        ]),
      ];
      return { result: { couple: outcome, removedImages: keys.length }, deletedKeys: keys };
    },
    options.storage,
  );
  // The hits counted against their id (and their couple's, gone with them) record when they wrote,
  // reacted, posted: they go after the commit, in a statement of their own, so the deletion's lock
  // order takes nothing more. A failure leaves them to expire with their window (a day at most).
  await forgetHitsOf(db, goneCouple ? [userId, goneCouple] : [userId]).catch((error: unknown) =>
    console.error("[account] could not forget the rate-limit hits of a deleted account", describeError(error)),
  );
  // The others' live rows showing where they read up to ('Seen by') name them: after the commit too.
  await forgetReadReceipts(db, userId, seenBy).catch((error: unknown) =>
    console.error("[account] could not forget the read receipts of a deleted account", describeError(error)),
  );
  // Hellos that waited for the person alone under 'Both of us approve' open now, each in its own
  // transaction. The deletion committed: a failure here leaves them pending, never an error for it.
  if (keptCouple)
    await acceptHellosAnswered(db, keptCouple).catch((error: unknown) =>
      console.error("[account] could not open the hellos the partner had accepted", describeError(error)),
    );
  return outcome;
}
