import { NextResponse } from "next/server";
import { LIMITS } from "@/lib/rate-limit";
import { AppError } from "@/lib/errors";
import { parseWith } from "@/lib/http/errors";
import { route } from "@/lib/http/route";
import { INVALID_IMAGE_MESSAGE, MAX_UPLOAD_BYTES } from "@/lib/images/rules";
import { stagedPhotoKindSchema } from "@/lib/images/schemas";
import { uploadedImageBytes } from "@/lib/images/upload";
import { stagePhoto } from "@/lib/images/staged";
import { readMultipart } from "@/lib/onboarding/form";

/** One photo and its multipart framing. */
const MAX_BODY_BYTES = MAX_UPLOAD_BYTES + 64 * 1024;

/**
 * One couple photo (multipart `kind`: couple-main | couple-photo, and `photo`) ahead of the save
 * that uses it: 201 `{data: {id, kind, url}}`; the save (onboarding step 2, the couple settings)
 * names the id in the photo's field. Unused photos are removed after a day (lib/images/staged.ts).
 */
export const POST = route(
  {
    access: "signed-in",
    limits: [LIMITS.stagedPhotosPerUser],
    input: async (request) => {
      const form = await readMultipart(request, MAX_BODY_BYTES);
      const { kind } = parseWith(stagedPhotoKindSchema, { kind: form.get("kind") ?? undefined }, { firstIssue: true });
      const bytes = await uploadedImageBytes(form.get("photo"), "photo");
      if (!bytes) throw new AppError("VALIDATION_ERROR", INVALID_IMAGE_MESSAGE, { fieldErrors: { photo: INVALID_IMAGE_MESSAGE } });
      return { kind, bytes };
    },
  },
  async ({ db, caller, input }) =>
    NextResponse.json({ data: await stagePhoto(db, caller.userId, input.kind, input.bytes) }, { status: 201 }),
);
