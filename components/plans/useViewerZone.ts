"use client";

import { useBrowserValue } from "@/components/ui/useBrowserValue";

/** The viewer's own zone: the browser's, unknown while rendering on the server (the place's time alone shows then). */
export const useViewerZone = () => useBrowserValue(() => Intl.DateTimeFormat().resolvedOptions().timeZone, null);
