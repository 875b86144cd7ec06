"use client";

import { ThemeProvider as NextThemes } from "next-themes";
import type { ReactNode } from "react";

/**
 * Stored choice under "theme", else the system preference. The first paint's theme is set by
 * the root layout's own script (lib/csp/theme-script.ts, allowed by its hash); next-themes'
 * copy, whose text depends on the build, is written as an inert data block so that no policy
 * has to allow it.
 */
const INERT_SCRIPT = { type: "application/json" } as const;

export function ThemeProvider({ children }: { children: ReactNode }) {
  return (
    <NextThemes
      attribute="data-theme"
      storageKey="theme"
      defaultTheme="system"
      enableSystem
      disableTransitionOnChange
      scriptProps={INERT_SCRIPT}
    >
      {children}
    </NextThemes>
  );
}
