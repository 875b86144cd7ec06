import { NextResponse } from "next/server";
import { MESSAGE_LIMITS } from "@/lib/messages/rules";
import { route } from "@/lib/http/route";
import { onePhotoUpload } from "@/lib/onboarding/form";
import { uploadMessagePhoto } from "@/lib/messages/service";

/** One photo (multipart field `photo`) for a message to come: 201 `{data: {url}}`. */
export const POST = route(
  { access: "complete-profile", limits: [MESSAGE_LIMITS.photosPerHour], input: onePhotoUpload },
  async ({ db, couple, input }) => {
    return NextResponse.json({ data: await uploadMessagePhoto(db, couple, input) }, { status: 201 });
  },
);
