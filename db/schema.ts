import { sql } from "drizzle-orm";
import {
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

export const privacyLevel = pgEnum("privacy_level", ["full", "city", "region", "country", "hidden"]);

/** One person. E-mail is stored lower-cased; the unique index makes it the identity. */
export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    dateOfBirth: date("date_of_birth", { mode: "string" }).notNull(),
    occupation: text("occupation"),
    bio: text("bio"),
    interests: text("interests").array().notNull().default(sql`'{}'::text[]`),
    avatarUrl: text("avatar_url"),
    location: text("location"),
    placeId: text("place_id"),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    city: text("city"),
    state: text("state"),
    country: text("country"),
    countryCode: text("country_code"),
    /** 'partner_invitation' for partner B; null for partner A. */
    registrationType: text("registration_type"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_key").on(t.email)],
);

/**
 * Every signed-in browser or API client holds one session row; the JWT cookie and the
 * access tokens only carry its id, so revoking the row ends the session everywhere.
 */
export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["browser", "api"] }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** Refresh tokens of an API session; the session is the rotation family. */
export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("refresh_tokens_hash_key").on(t.tokenHash), index("refresh_tokens_session_idx").on(t.sessionId)],
);

export const userTokenPurpose = pgEnum("user_token_purpose", ["verify_email", "reset_password"]);

/** Single-use secrets sent by e-mail; only their SHA-256 is stored. */
export const userTokens = pgTable(
  "user_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: userTokenPurpose("purpose").notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("user_tokens_hash_key").on(t.tokenHash), index("user_tokens_user_idx").on(t.userId, t.purpose)],
);

/** Hits counted against a limit; kept in the database so limits hold across serverless instances. */
export const rateLimitHits = pgTable(
  "rate_limit_hits",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    bucket: text("bucket").notNull(),
    subject: text("subject").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("rate_limit_hits_lookup_idx").on(t.bucket, t.subject, t.createdAt)],
);

/**
 * Every e-mail is written here in the transaction that causes it (transactional outbox),
 * then delivered by the configured provider; without one, this table is the dev outbox.
 */
export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: createdAt(),
  },
  (t) => [index("email_outbox_to_idx").on(t.to, t.createdAt)],
);

export const couples = pgTable(
  "couples",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    partner1Id: uuid("partner1_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    partner2Id: uuid("partner2_id").references(() => users.id, { onDelete: "set null" }),
    coupleName: text("couple_name").notNull(),
    bio: text("bio"),
    photos: text("photos").array().notNull().default(sql`'{}'::text[]`),
    coupleTypes: text("couple_types").array().notNull().default(sql`'{}'::text[]`),
    interests: text("interests").array().notNull().default(sql`'{}'::text[]`),
    location: text("location"),
    placeId: text("place_id"),
    profileImageUrl: text("profile_image_url"),
    status: text("status").notNull().default("active"),
    isVerified: boolean("is_verified").notNull().default(false),
    partnerAVerified: boolean("partner_a_verified").notNull().default(false),
    partnerBVerified: boolean("partner_b_verified").notNull().default(false),
    partnerACompletedAt: timestamp("partner_a_completed_at", { withTimezone: true }),
    isVisible: boolean("is_visible").notNull().default(false),
    canCreatePaidEvents: boolean("can_create_paid_events").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("couples_partner1_key").on(t.partner1Id), uniqueIndex("couples_partner2_key").on(t.partner2Id)],
);

export const invitations = pgTable(
  "invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    coupleId: uuid("couple_id")
      .notNull()
      .references(() => couples.id, { onDelete: "cascade" }),
    inviterId: uuid("inviter_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    partnerEmail: text("partner_email").notNull(),
    partnerFirstName: text("partner_first_name").notNull(),
    partnerLastName: text("partner_last_name").notNull(),
    /** The e-mailed link's secret: accepting with it proves the invited address. */
    tokenHash: text("token_hash").notNull(),
    /**
     * The shareable link's secret, shown to the inviter: accepting with it proves nothing about
     * the address, so that account must verify its e-mail like any other.
     */
    shareTokenHash: text("share_token_hash"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("invitations_token_hash_key").on(t.tokenHash),
    uniqueIndex("invitations_share_token_hash_key").on(t.shareTokenHash),
    index("invitations_couple_idx").on(t.coupleId),
    index("invitations_email_idx").on(t.partnerEmail),
    // At most one open invitation per couple and address; an expired one is revoked before a new one is made.
    uniqueIndex("invitations_open_couple_email_key")
      .on(t.coupleId, t.partnerEmail)
      .where(sql`${t.acceptedAt} is null and ${t.revokedAt} is null`),
  ],
);

/** A place chosen for a user or a couple, with the privacy level that decides what others see. */
export const locations = pgTable(
  "locations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    entityType: text("entity_type", { enum: ["user", "couple"] }).notNull(),
    entityId: uuid("entity_id").notNull(),
    placeId: text("place_id").notNull(),
    displayLocation: text("display_location").notNull(),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    city: text("city"),
    state: text("state"),
    country: text("country"),
    countryCode: text("country_code"),
    privacyLevel: privacyLevel("privacy_level").notNull().default("city"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("locations_entity_key").on(t.entityType, t.entityId), index("locations_lat_lng_idx").on(t.latitude, t.longitude)],
);

export const interests = pgTable("interests", {
  value: text("value").primaryKey(),
  label: text("label").notNull(),
  category: text("category").notNull(),
  sortOrder: integer("sort_order").notNull().default(0),
});

export const notificationType = pgEnum("notification_type", ["partner_joined", "reply", "mention", "reaction"]);

/**
 * In-app notifications, one row per recipient user. `message` is the body shown (the spec's
 * content_snippet or message); post and reply ids link forum notifications to their place.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: notificationType("type").notNull(),
    title: text("title").notNull(),
    message: text("message").notNull(),
    postId: uuid("post_id"),
    replyId: uuid("reply_id"),
    actorUserId: uuid("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    actorCoupleId: uuid("actor_couple_id").references(() => couples.id, { onDelete: "set null" }),
    isRead: boolean("is_read").notNull().default(false),
    readAt: timestamp("read_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("notifications_user_created_idx").on(t.userId, t.createdAt.desc(), t.id.desc()),
    // The bell's unread count reads only this small index, however many rows a user has.
    index("notifications_user_unread_idx").on(t.userId).where(sql`${t.isRead} = false`),
  ],
);
