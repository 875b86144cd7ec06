/** Helpers of the photo verification tests: the partner's and the moderators' calls. */
import { NextRequest } from "next/server";
import { GET as selfieImageRoute } from "@/app/api/moderation/verifications/[id]/selfie/route";
import { POST as decisionRoute } from "@/app/api/moderation/verifications/[id]/decision/route";
import { GET as queueRoute } from "@/app/api/moderation/verifications/route";
import { POST as selfieRoute } from "@/app/api/verification/selfie/route";
import { GET as stateRoute } from "@/app/api/verification/route";
import { call, freshAddress } from "./api";
import type { Headers } from "./forum";
import { formOf, jpeg, post } from "./onboarding";

const enc = encodeURIComponent;

export const verification = {
  state: (h: Headers) => call(stateRoute, "GET", "/api/verification", { headers: h }),
  /** Sends a selfie in `pose` (the one asked for unless told otherwise). */
  sendSelfie: async (pose: string, h: Headers, photo?: Buffer) =>
    post(selfieRoute, "/api/verification/selfie", formOf({ pose, photo: photo ?? (await jpeg(600, 800)) }), h),
  queue: (h: Headers, cursor?: string) =>
    call(queueRoute, "GET", `/api/moderation/verifications${cursor ? `?cursor=${enc(cursor)}` : ""}`, { headers: h }),
  decide: (id: string, body: unknown, h: Headers) =>
    call(decisionRoute, "POST", `/api/moderation/verifications/${enc(id)}/decision`, { body, headers: h, params: { id } }),
  /** The selfie as the route serves it: its status and, when served, its bytes' type. */
  selfie: async (id: string, h: Headers) => {
    const request = new NextRequest(new URL(`/api/moderation/verifications/${enc(id)}/selfie`, "http://localhost:3000"), {
      headers: { "x-forwarded-for": freshAddress(), ...h },
    });
    const response = await selfieImageRoute(request, { params: Promise.resolve({ id } as never) });
    return { status: response.status, type: response.headers.get("content-type"), cache: response.headers.get("cache-control") };
  },
};

/** The partner asks for their state (a pose is picked) and sends a selfie in it: the pose and the answer. */
export async function sendPendingSelfie(h: Headers) {
  const asked = await verification.state(h);
  const pose = asked.json.data.pose.id as string;
  return { pose, sent: await verification.sendSelfie(pose, h) };
}
