"use client";

import { useEffect } from "react";
import { AuthCard } from "@/components/ui/AuthCard";

const RELOAD_KEY = "chunk-load-error-reload";

/**
 * The router's error page. A failed chunk load (a new deployment replaced the old files) reloads
 * the page once per session; anything else shows the error screen.
 */
export function ErrorScreen({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    if (error.name === "ChunkLoadError" && !sessionStorage.getItem(RELOAD_KEY)) {
      sessionStorage.setItem(RELOAD_KEY, "true");
      window.location.reload();
    }
  }, [error]);
  return (
    <AuthCard title="Unexpected Application Error!" brand={false} role="alert">
      <p>Something went wrong on our side. Please try again.</p>
      {error.digest && <p className="muted">Reference: {error.digest}</p>}
      <button type="button" className="button button-primary" onClick={reset}>
        Try again
      </button>
    </AuthCard>
  );
}
