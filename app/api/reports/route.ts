import { NextResponse } from "next/server";
import { SAFETY_REACTIONS } from "@/lib/registry/safety";
import { fileReport } from "@/lib/forum/reports";
import { FORUM_TEXTS } from "@/lib/forum/rules";
import { reportSchema } from "@/lib/forum/schemas";
import { jsonBody, route } from "@/lib/http/route";
import { REPORTS_PER_USER } from "@/lib/safety/rules";

/** A report of a post, a reply or a couple: 201, or 409 ALREADY_REPORTED while the person's report of it is open. */
export const POST = route(
  { access: "complete-profile", limits: [REPORTS_PER_USER], input: jsonBody(reportSchema, { firstIssue: true }) },
  async ({ db, couple, input }) => {
    const report = await fileReport(db, couple, input, SAFETY_REACTIONS);
    return NextResponse.json({ data: { id: report.id, status: "open" }, message: FORUM_TEXTS.reportThanks }, { status: 201 });
  },
);
