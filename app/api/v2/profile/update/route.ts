import { NextResponse } from "next/server";
import { parseWith, readJson } from "@/lib/http/errors";
import { route } from "@/lib/http/route";
import { loadCurrentUser } from "@/lib/profile/current-user";
import { normalizeProfileKeys, profileUpdateSchema, updateProfile } from "@/lib/profile/update";

/** Either key spelling is accepted: the keys are normalised before the schema reads them. */
const readProfileUpdate = async (request: Request) => parseWith(profileUpdateSchema, normalizeProfileKeys(await readJson(request)));

export const PUT = route({ access: "signed-in", input: readProfileUpdate }, async ({ db, caller, input }) => {
  await updateProfile(db, caller.userId, input);
  const { user } = await loadCurrentUser(db, caller.userId);
  return NextResponse.json({ success: true, data: user });
});
