"use client";

import { useTheme } from "next-themes";
import { useSyncExternalStore } from "react";

export const THEME_CHOICES = [
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
  { value: "system", label: "System", hint: "follows your device's setting" },
] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number]["value"];

const isChoice = (value: string | undefined): value is ThemeChoice => THEME_CHOICES.some((choice) => choice.value === value);

/**
 * The one piece behind both theme controls (the navigation's toggle, the Appearance settings):
 * next-themes' stored choice (localStorage "theme", default "system") and the theme it resolves
 * to. The stored choice is known only in the browser: before mounting this reports none.
 */
export function useThemeChoice(): { mounted: boolean; choice: ThemeChoice | null; dark: boolean; choose(choice: ThemeChoice): void } {
  const { theme, resolvedTheme, setTheme } = useTheme();
  const mounted = useSyncExternalStore(
    () => () => {},
    () => true,
    () => false,
  );
  return {
    mounted,
    choice: mounted ? (isChoice(theme) ? theme : "system") : null,
    dark: mounted && resolvedTheme === "dark",
    choose: setTheme,
  };
}
