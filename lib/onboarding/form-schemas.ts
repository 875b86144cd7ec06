/**
 * The onboarding steps' forms as the browser holds them (a picked photo, the place chosen from the
 * suggestions), checked by the steps' own checks (./step-checks, the server's rules) in the spec's
 * check order, so the first message is the first problem. Generic over the form's values, which
 * carry browser types (the picked photos) this pure file does not know.
 */
import { z } from "zod";
import { step1Errors, step2Errors, type StepErrors } from "./step-checks";

type Step1Values = {
  userImage: unknown;
  occupation: string;
  location: { location: string; placeId: string } | null;
  interests: string[];
};
type Step2Values = { couple_name: string; coupleProfileImage: unknown; couplePhotos: unknown[]; coupleTypes: string[]; bio: string };

/** Each problem the checks found becomes an issue on its field, in their order. */
const checkedBy = <V>(check: (values: V) => StepErrors<string>) =>
  z.custom<V>().superRefine((values, ctx) => {
    for (const [field, message] of Object.entries(check(values))) if (message) ctx.addIssue({ code: "custom", path: [field], message });
  });

/** Step 1; `hasSavedPhoto`: the profile photo saved before counts as the photo. */
export const step1FormSchema = <V extends Step1Values>(hasSavedPhoto: boolean) =>
  checkedBy<V>((values) => step1Errors({ ...values, hasPhoto: Boolean(values.userImage) || hasSavedPhoto }));

export const step2FormSchema = <V extends Step2Values>() =>
  checkedBy<V>((values) =>
    step2Errors({ ...values, hasMainPhoto: values.coupleProfileImage !== null, extraPhotoCount: values.couplePhotos.length }),
  );
