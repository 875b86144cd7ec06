"use client";

import { useTheme } from "next-themes";
import { useEffect, useState } from "react";

export function ThemeToggle() {
  const { resolvedTheme, setTheme } = useTheme();
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const dark = mounted && resolvedTheme === "dark";
  const label = dark ? "Switch to light mode" : "Switch to dark mode";
  return (
    <button type="button" className="icon-button" onClick={() => setTheme(dark ? "light" : "dark")} aria-label={label} title={label}>
      <span aria-hidden="true">{dark ? "☀" : "☾"}</span>
    </button>
  );
}
