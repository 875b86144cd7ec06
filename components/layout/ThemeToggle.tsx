"use client";

import { useTheme } from "next-themes";
import { useSyncExternalStore } from "react";
import { MoonIcon, SunIcon } from "@/components/ui/icons";

/** The theme switch: an icon button, or (`withLabel`, in the phone's menu) an icon with its label. */
export function ThemeToggle({ className = "icon-button", withLabel = false }: { className?: string; withLabel?: boolean }) {
  const { resolvedTheme, setTheme } = useTheme();
  // The stored theme is known only in the browser: render the light label on the server.
  const mounted = useSyncExternalStore(
    () => () => {},
    () => true,
    () => false,
  );
  const dark = mounted && resolvedTheme === "dark";
  const label = dark ? "Switch to light mode" : "Switch to dark mode";
  return (
    <button
      type="button"
      className={className}
      onClick={() => setTheme(dark ? "light" : "dark")}
      aria-label={withLabel ? undefined : label}
      title={withLabel ? undefined : label}
    >
      {dark ? <SunIcon /> : <MoonIcon />}
      {withLabel && label}
    </button>
  );
}
