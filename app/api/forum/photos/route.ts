import { NextResponse } from "next/server";
import { FORUM_LIMITS } from "@/lib/forum/rules";
import { uploadForumPhoto } from "@/lib/forum/service";
import { route } from "@/lib/http/route";
import { onePhotoUpload } from "@/lib/onboarding/form";

/** One photo (multipart field `photo`) for a post to come: 201 `{data: {url}}`. */
export const POST = route(
  { access: "complete-profile", limits: [FORUM_LIMITS.photosPerUser], input: onePhotoUpload },
  async ({ db, couple, input }) => {
    return NextResponse.json({ data: await uploadForumPhoto(db, couple, input) }, { status: 201 });
  },
);
