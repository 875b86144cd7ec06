import { NextResponse } from "next/server";
import { AppError } from "@/lib/errors";
import { parseWith } from "@/lib/http/errors";
import { route } from "@/lib/http/route";
import { INVALID_IMAGE_MESSAGE, MAX_UPLOAD_BYTES } from "@/lib/images/rules";
import { uploadedImageBytes } from "@/lib/images/upload";
import { readMultipart } from "@/lib/onboarding/form";
import { SELFIES_PER_USER } from "@/lib/verification/rules";
import { selfiePoseSchema } from "@/lib/verification/schemas";
import { submitSelfie } from "@/lib/verification/service";

/** One photo and its multipart framing. */
const MAX_BODY_BYTES = MAX_UPLOAD_BYTES + 64 * 1024;

/**
 * The verification selfie (multipart `pose`: the pose asked for, and `photo`): 201 `{data}` with
 * the partner's state, now pending. Stored privately: only moderators see it, until they decide.
 */
export const POST = route(
  {
    access: "complete-profile",
    limits: [SELFIES_PER_USER],
    input: async (request) => {
      const form = await readMultipart(request, MAX_BODY_BYTES);
      const { pose } = parseWith(selfiePoseSchema, { pose: form.get("pose") ?? undefined }, { firstIssue: true });
      const bytes = await uploadedImageBytes(form.get("photo"), "photo");
      if (!bytes) throw new AppError("VALIDATION_ERROR", INVALID_IMAGE_MESSAGE, { fieldErrors: { photo: INVALID_IMAGE_MESSAGE } });
      return { pose, bytes };
    },
  },
  async ({ db, couple, input }) => NextResponse.json({ data: await submitSelfie(db, couple, input.pose, input.bytes) }, { status: 201 }),
);
