"use client";

import { MoonIcon, SunIcon } from "@/components/ui/icons";
import { useThemeChoice } from "./useThemeChoice";

/** The theme switch: an icon button, or (`withLabel`, in the phone's menu) an icon with its label. */
export function ThemeToggle({ className = "icon-button", withLabel = false }: { className?: string; withLabel?: boolean }) {
  // Before mounting, the light label is rendered (the server cannot know the stored theme).
  const { dark, choose } = useThemeChoice();
  const label = dark ? "Switch to light mode" : "Switch to dark mode";
  return (
    <button
      type="button"
      className={className}
      onClick={() => choose(dark ? "light" : "dark")}
      aria-label={withLabel ? undefined : label}
      title={withLabel ? undefined : label}
    >
      {dark ? <SunIcon /> : <MoonIcon />}
      {withLabel && label}
    </button>
  );
}
