"use client";

import dynamic from "next/dynamic";
import { Opening } from "@/components/ui/Opening";

/**
 * The plan form (its place search, zones and checks) opens in a dialog on a click: its code loads
 * then, not with the conversation and the plan cards that offer it.
 */
export const PlanForm = dynamic(() => import("./PlanForm").then((m) => m.PlanForm), { ssr: false, loading: () => <Opening /> });
