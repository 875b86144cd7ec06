import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { myVerification } from "@/lib/verification/service";

/** The partner's photo verification: its state, and a pose newly picked for the next selfie (kept while one is pending). */
export const GET = route({ access: "complete-profile" }, async ({ db, couple }) =>
  NextResponse.json({ data: await myVerification(db, couple) }),
);
