"use client";

import dynamic from "next/dynamic";

/**
 * 'Report' and 'Block' open their dialog on a click: its code (reasons, note, calls) loads then,
 * not with every page that lists posts, replies, messages or a profile.
 */
export const ReportDialog = dynamic(() => import("./ReportDialog").then((m) => m.ReportDialog), { ssr: false });
export const BlockDialog = dynamic(() => import("./BlockDialog").then((m) => m.BlockDialog), { ssr: false });
