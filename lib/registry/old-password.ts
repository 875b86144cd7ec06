import "server-only";
import type { EndedWithOldPassword } from "@/lib/auth/password-reset";
import { endInvitationsOfOldPassword } from "@/lib/invitations/manage";

/**
 * What a new password (a reset or a change) ends beyond auth's own links
 * (lib/auth/password-reset.ts endLinksOfOldPassword): one line per feature.
 */
export const ENDED_WITH_OLD_PASSWORD: readonly EndedWithOldPassword[] = [endInvitationsOfOldPassword];
