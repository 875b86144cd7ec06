import { sql } from "drizzle-orm";
import { date, doublePrecision, index, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";

/** 'admin' moderates the forum (given by `npm run admin:grant -- EMAIL`); everyone else is a member. */
export const userRole = pgEnum("user_role", ["member", "moderator", "admin"]);

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
    interests: text("interests")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
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
    role: userRole("role").notNull().default("member"),
    /** The first time this person opened the dashboard: 'Welcome' then, 'Welcome back' after (lib/dashboard/rules.ts). */
    welcomedAt: timestamp("welcomed_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("users_email_key").on(t.email),
    // A mention finds a couple by a partner's first name, typed from its start ("@An" finds Andre).
    index("users_first_name_prefix_idx").using("btree", sql`lower(${t.firstName}) text_pattern_ops`),
  ],
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
    /** A browser session's slides while it is used (lib/auth/sessions touchSession); an API session's is fixed. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** The client's User-Agent when the session began: the settings page names the device from it. */
    userAgent: text("user_agent"),
    /** Updated at most every few minutes while the session is used (lib/auth/sessions touchSession). */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("sessions_user_idx").on(t.userId),
    // The due work's sweep of ended sessions (lib/auth/sessions.ts dropEndedSessions), by each end.
    index("sessions_revoked_idx")
      .on(t.revokedAt)
      .where(sql`${t.revokedAt} is not null`),
    index("sessions_expires_idx").on(t.expiresAt),
  ],
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

export const userTokenPurpose = pgEnum("user_token_purpose", ["verify_email", "reset_password", "change_email"]);

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
    /** 'change_email' only: the address the link confirms (it replaces users.email when used). */
    newEmail: text("new_email"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("user_tokens_hash_key").on(t.tokenHash), index("user_tokens_user_idx").on(t.userId, t.purpose)],
);
