/**
 * A person's role: `member`, `moderator` (the queue and the actions on couples) or `admin`
 * (everything a moderator does, and grants roles: `npm run admin:grant` / `moderator:grant`).
 * Pure and browser-safe.
 */
export const ROLES = ["member", "moderator", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** Moderators and admins run the moderation queue and act on couples. */
export const mayModerate = (role: Role): boolean => role === "moderator" || role === "admin";
