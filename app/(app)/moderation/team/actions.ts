"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/http/action";
import { parseWith } from "@/lib/http/errors";
import { grantRoleSchema, teamMemberParamsSchema } from "@/lib/safety/moderation-schemas";
import { setRole } from "@/lib/safety/moderators";

/** Grant moderator or admin by e-mail: the same domain function as POST /api/moderation/team. */
export const grantRoleAction = action(
  {
    access: "admin",
    input: (values: unknown) => parseWith(grantRoleSchema, values),
    failure: "Could not grant the role. Please try again.",
  },
  async ({ db, caller, input }) => {
    await setRole(db, caller.userId, { email: input.email }, input.role);
    revalidatePath("/moderation/team");
    return {};
  },
);

/** Make a moderator or admin a member again: the same domain function as DELETE /api/moderation/team/{userId}. */
export const revokeRoleAction = action(
  {
    access: "admin",
    input: (userId: unknown) => parseWith(teamMemberParamsSchema, { userId }),
    failure: "Could not revoke the role. Please try again.",
  },
  async ({ db, caller, input }) => {
    await setRole(db, caller.userId, { userId: input.userId }, "member");
    revalidatePath("/moderation/team");
    return {};
  },
);
