import { NextResponse } from "next/server";
import { forumActor } from "@/lib/forum/queries";
import { uploadForumPhoto } from "@/lib/forum/service";
import { route } from "@/lib/http/route";
import { MAX_UPLOAD_BYTES } from "@/lib/images/rules";
import { uploadedImageBytes } from "@/lib/images/upload";
import { AppError } from "@/lib/errors";
import { INVALID_IMAGE_MESSAGE } from "@/lib/images/rules";
import { readMultipart } from "@/lib/onboarding/form";

/** One photo and its multipart framing. */
const MAX_BODY_BYTES = MAX_UPLOAD_BYTES + 64 * 1024;

/** One photo (multipart field `photo`) for a post to come: 201 `{data: {url}}`. */
export const POST = route(
  {
    access: "complete-profile",
    input: async (request) => {
      const bytes = await uploadedImageBytes((await readMultipart(request, MAX_BODY_BYTES)).get("photo"), "photo");
      if (!bytes) throw new AppError("VALIDATION_ERROR", INVALID_IMAGE_MESSAGE, { fieldErrors: { photo: INVALID_IMAGE_MESSAGE } });
      return bytes;
    },
  },
  async ({ db, caller, input }) => {
    const actor = await forumActor(db, caller.userId);
    return NextResponse.json({ data: await uploadForumPhoto(db, actor, input) }, { status: 201 });
  },
);
