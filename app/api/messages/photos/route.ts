import { NextResponse } from "next/server";
import { MESSAGE_LIMITS } from "@/lib/messages/rules";
import { memberOf } from "@/lib/connections/queries";
import { route } from "@/lib/http/route";
import { onePhotoUpload } from "@/lib/onboarding/form";
import { uploadMessagePhoto } from "@/lib/messages/service";

/** One photo (multipart field `photo`) for a message to come: 201 `{data: {url}}`. */
export const POST = route(
  { access: "complete-profile", limits: [MESSAGE_LIMITS.photosPerHour], input: onePhotoUpload },
  async ({ db, caller, input }) => {
    const member = await memberOf(db, caller.userId);
    return NextResponse.json({ data: await uploadMessagePhoto(db, member, input) }, { status: 201 });
  },
);
