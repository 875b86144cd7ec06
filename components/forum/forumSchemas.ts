"use client";

/**
 * The forum's zod schemas (the server's own), loaded on the first send or save, so the forum's
 * first paint ships no zod; null when they cannot load (offline), the form then says so.
 */
export const loadForumSchemas = () => import("@/lib/forum/schemas").catch(() => null);

export const SCHEMAS_FAILED = "Could not reach the server. Please try again.";
