/**
 * A person's role: `member`, `moderator` (the queue and the actions on couples) or `admin`
 * (everything a moderator does, and grants roles: `npm run admin:grant` / `moderator:grant`).
 * Pure and browser-safe.
 */
export const ROLES = ["member", "moderator", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const MODERATORS_ONLY = "Only moderators can do this.";
export const ADMINS_ONLY = "Only admins can do this.";

/** Moderators and admins run the moderation queue and act on couples. */
export const mayModerate = (role: Role): boolean => role === "moderator" || role === "admin";

/** Only admins grant and revoke roles (/moderation/team, or the command line). */
export const mayGrantRoles = (role: Role): boolean => role === "admin";
/** The roles an admin grants; revoking makes the person a member again. */
export const TEAM_ROLES = ["moderator", "admin"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
