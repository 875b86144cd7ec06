"use client";

import dynamic from "next/dynamic";
import { Opening } from "@/components/ui/Opening";

/**
 * The plan form (its place search, zones and checks) and the cancel form (its reason's checks)
 * open in a dialog on a click: their code (react-hook-form with it) loads then, not with the
 * conversation and the plan cards that offer them.
 */
export const PlanForm = dynamic(() => import("./PlanForm").then((m) => m.PlanForm), { ssr: false, loading: () => <Opening /> });
export const CancelPlanForm = dynamic(() => import("./CancelPlanForm").then((m) => m.CancelPlanForm), {
  ssr: false,
  loading: () => <Opening />,
});
