"use client";

import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/** The viewer's own zone: the browser's, unknown while rendering on the server (the place's time alone shows then). */
export const useViewerZone = () =>
  useSyncExternalStore(
    noSubscription,
    () => Intl.DateTimeFormat().resolvedOptions().timeZone,
    () => null,
  );
