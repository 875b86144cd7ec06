import "server-only";
import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { transaction } from "@/db/transaction";
import { couples, notifications, users } from "@/db/schema";
import { hashPassword } from "@/lib/auth/password";
import { ensureInterestCatalogue } from "@/lib/interests/service";
import { saveEntityLocation } from "@/lib/locations/place";
import { daysAgo, upsertUser, type UserSeed } from "./accounts";
import { directoryPictures, seedDirectory } from "./directory";
import { seedForum } from "./forum";
import {
  DEMO_COUPLES,
  DEMO_EMAIL_DOMAIN,
  DEMO_INBOX,
  DEMO_PASSWORD,
  DEMO_SOLO,
  demoCoupleName,
  demoEmail,
  type DemoPerson,
  type Place,
} from "./data";
import { coupleInitials, demoImage, personInitials } from "./images";

/**
 * The demo: couples, their locations, the interest catalogue, one partner's notifications, the
 * directory's neighbourhood and a forum (`npm run db:seed`, and a preview's first start).
 * Idempotent: every row is upserted on its natural key (e-mail, partner, value) and the
 * notifications are replaced, so a second run resets the demo accounts to their demo state
 * instead of failing or duplicating them. Demo pictures (./images) are drawn for the people and
 * couples that have none yet, so a re-seed keeps them and leaves no orphans.
 */

export type SignIn = { email: string; shows: string };

const placeColumns = (p: Place | null) => ({
  location: p?.location ?? null,
  placeId: p?.placeId ?? null,
  latitude: p?.latitude ?? null,
  longitude: p?.longitude ?? null,
  city: p?.city ?? null,
  state: p?.state ?? null,
  country: p?.country ?? null,
  countryCode: p?.countryCode ?? null,
});

function personValues(person: DemoPerson, passwordHash: string, p: Place, finished: boolean, avatarUrl: string | null): UserSeed {
  return {
    email: demoEmail(person.firstName),
    passwordHash,
    emailVerifiedAt: daysAgo(60),
    firstName: person.firstName,
    lastName: person.lastName,
    dateOfBirth: person.dateOfBirth,
    // An unfinished partner B has only what the invitation acceptance gave them.
    occupation: finished ? person.occupation : null,
    bio: finished ? person.bio : null,
    interests: finished ? person.interests : [],
    avatarUrl: finished ? avatarUrl : null,
    registrationType: null,
    // Members for weeks: their dashboard says 'Welcome back'.
    welcomedAt: finished ? daysAgo(30) : null,
    ...placeColumns(finished ? p : null),
  };
}

type DemoPictures = { avatars: Map<string, string>; couples: Map<string, { main: string; photos: string[] }> };

/**
 * The demo's pictures, by partner A's e-mail for couples: those already stored (a re-seed) are
 * kept, the missing ones drawn and stored. Before the transaction: storing is slow.
 */
async function demoPictures(db: Db): Promise<DemoPictures> {
  const emails = DEMO_COUPLES.flatMap((c) => [demoEmail(c.partnerA.firstName), demoEmail(c.partnerB.firstName)]);
  const stored = await db.select({ email: users.email, avatarUrl: users.avatarUrl }).from(users).where(inArray(users.email, emails));
  const storedCouples = await db
    .select({ email: users.email, main: couples.profileImageUrl, photos: couples.photos })
    .from(couples)
    .innerJoin(users, eq(users.id, couples.partner1Id))
    .where(inArray(users.email, emails));
  const avatarOf = new Map(stored.map((row) => [row.email, row.avatarUrl]));
  const coupleOf = new Map(storedCouples.map((row) => [row.email, row]));
  const pictures: DemoPictures = { avatars: new Map(), couples: new Map() };
  for (const { partnerA: a, partnerB: b } of DEMO_COUPLES) {
    // An unfinished partner B has no photo yet: they add it in their set-up.
    for (const person of b.finished ? [a, b] : [a]) {
      const email = demoEmail(person.firstName);
      pictures.avatars.set(email, avatarOf.get(email) ?? (await demoImage(personInitials(person), person.firstName, "avatar")));
    }
    const name = `${a.firstName} & ${b.firstName}`;
    const couple = coupleOf.get(demoEmail(a.firstName));
    const initials = coupleInitials(a, b);
    pictures.couples.set(demoEmail(a.firstName), {
      main: couple?.main ?? (await demoImage(initials, name, "couple-main")),
      photos: couple?.photos.length
        ? couple.photos
        : [await demoImage(initials, name, "couple-photo", 1), await demoImage(initials, name, "couple-photo", 2)],
    });
  }
  return pictures;
}

/** A demo person's account and couple, by first name. */
type Seeded = Map<string, { userId: string; coupleId: string }>;

/** The demo inbox, replaced on every run (a natural key it has not): delete, then insert. */
async function seedInbox(db: Db, seeded: Seeded): Promise<void> {
  const recipient = seeded.get(DEMO_INBOX.recipient)!;
  await db.delete(notifications).where(eq(notifications.userId, recipient.userId));
  await db.insert(notifications).values(
    DEMO_INBOX.notifications.map((n) => {
      const createdAt = new Date(Date.now() - n.hoursAgo * 60 * 60 * 1000);
      const actor = seeded.get(n.actor)!;
      return {
        userId: recipient.userId,
        type: n.type,
        title: n.title,
        message: n.message,
        postId: n.postId ?? null,
        replyId: n.replyId ?? null,
        actorUserId: actor.userId,
        actorCoupleId: actor.coupleId,
        isRead: n.read,
        readAt: n.read ? createdAt : null,
        createdAt,
      };
    }),
  );
}

export type DemoSeed = {
  interests: number;
  couples: number;
  notifications: number;
  directory: number;
  forum: { posts: number; replies: number; reactions: number };
  signIns: SignIn[];
};

/**
 * The demo network's couples last changed what they are matched on when they completed their
 * profile (or joined), as a grown network's did, not at the seed's instant: otherwise every couple
 * counts as changed since each list was computed (lib/couples/match-changes.ts) and is scored again
 * on every read for a minute, which no real network does.
 */
async function settleMatchChanges(tx: Db): Promise<void> {
  await tx
    .update(couples)
    .set({ matchChangedAt: sql`least(${couples.matchChangedAt}, coalesce(${couples.partnerACompletedAt}, ${couples.createdAt}))` })
    .where(sql`${couples.partner1Id} in (select ${users.id} from ${users} where ${users.email} like ${`%@${DEMO_EMAIL_DOMAIN}`})`);
}

/** Seeds the demo on a migrated database (see above); what it wrote, and who can sign in. */
export async function seedDemo(db: Db): Promise<DemoSeed> {
  const people = DEMO_COUPLES.flatMap((c) => [c.partnerA.firstName, c.partnerB.firstName]).concat(DEMO_SOLO.firstName);
  // Hashing is slow (argon2id): do it before the transaction, one salt per account.
  const hashes = new Map(await Promise.all(people.map(async (name) => [name, await hashPassword(DEMO_PASSWORD)] as const)));
  const pictures = await demoPictures(db);
  const neighbourhood = await directoryPictures(db);
  const signIns: SignIn[] = [];
  const seeded: Seeded = new Map();

  const totals = await transaction(db, async (tx) => {
    const count = await ensureInterestCatalogue(tx);
    for (const couple of DEMO_COUPLES) {
      const { partnerA: a, partnerB: b, place: p } = couple;
      const aId = await upsertUser(tx, personValues(a, hashes.get(a.firstName)!, p, true, pictures.avatars.get(demoEmail(a.firstName))!));
      const bId = await upsertUser(tx, {
        ...personValues(b, hashes.get(b.firstName)!, p, b.finished, pictures.avatars.get(demoEmail(b.firstName)) ?? null),
        registrationType: "partner_invitation",
      });
      const coupleValues = {
        partner1Id: aId,
        partner2Id: bId,
        coupleName: demoCoupleName(couple),
        bio: couple.bio,
        profileImageUrl: pictures.couples.get(demoEmail(a.firstName))!.main,
        photos: pictures.couples.get(demoEmail(a.firstName))!.photos,
        coupleTypes: couple.coupleTypes,
        interests: [...new Set([...a.interests, ...b.interests])],
        location: p.location,
        placeId: p.placeId,
        status: "active",
        partnerAVerified: true,
        partnerBVerified: b.finished,
        isVerified: b.finished,
        isVisible: b.finished,
        partnerACompletedAt: daysAgo(couple.completedDaysAgo),
        canCreatePaidEvents: couple.canCreatePaidEvents ?? false,
      };
      const [row] = await tx
        .insert(couples)
        .values(coupleValues)
        .onConflictDoUpdate({ target: couples.partner1Id, set: { ...coupleValues, updatedAt: new Date() } })
        .returning({ id: couples.id });
      seeded.set(a.firstName, { userId: aId, coupleId: row!.id }).set(b.firstName, { userId: bId, coupleId: row!.id });
      await saveEntityLocation(tx, { entityType: "couple", entityId: row!.id }, p, "city");
      await saveEntityLocation(tx, { entityType: "user", entityId: aId }, p, "city");
      if (b.finished) await saveEntityLocation(tx, { entityType: "user", entityId: bId }, p, "city");
      signIns.push(
        {
          email: demoEmail(a.firstName),
          shows: `dashboard of ${coupleValues.coupleName} (${p.city}), partner A${b.finished ? "" : "; partner B not finished"}${couple.canCreatePaidEvents ? "; drafts paid events" : ""}`,
        },
        {
          email: demoEmail(b.firstName),
          shows: b.finished
            ? `dashboard of ${coupleValues.coupleName} (${p.city}), partner B`
            : `partner setup: joined ${coupleValues.coupleName}, profile not finished`,
        },
      );
    }

    const soloId = await upsertUser(tx, {
      email: demoEmail(DEMO_SOLO.firstName),
      passwordHash: hashes.get(DEMO_SOLO.firstName)!,
      emailVerifiedAt: daysAgo(2),
      firstName: DEMO_SOLO.firstName,
      lastName: DEMO_SOLO.lastName,
      dateOfBirth: DEMO_SOLO.dateOfBirth,
      occupation: null,
      bio: null,
      interests: [],
      avatarUrl: null,
      registrationType: null,
      ...placeColumns(null),
    });
    // Undo a couple made while trying the demo, so the account needs onboarding again.
    await tx.delete(couples).where(eq(couples.partner1Id, soloId));
    signIns.push({ email: demoEmail(DEMO_SOLO.firstName), shows: "onboarding: verified, no couple yet" });
    await seedInbox(tx, seeded);
    const directory = await seedDirectory(tx, hashes.get(DEMO_SOLO.firstName)!, neighbourhood);
    await settleMatchChanges(tx);
    return { count, directory, forum: await seedForum(tx, seeded) };
  });

  return {
    interests: totals.count,
    couples: DEMO_COUPLES.length,
    notifications: DEMO_INBOX.notifications.length,
    directory: totals.directory,
    forum: totals.forum,
    signIns,
  };
}
