"use client";

import type { ReactNode } from "react";
import { LiveViewerContext } from "@/lib/live/client/stream";

/** Names whom the signed-in pages were rendered for, so their live stream is that person's alone (lib/live/client/stream.ts). */
export function LiveViewer({ userId, children }: { userId: string; children: ReactNode }) {
  return <LiveViewerContext.Provider value={userId}>{children}</LiveViewerContext.Provider>;
}
