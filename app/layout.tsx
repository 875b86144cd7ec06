import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { PreviewRibbon } from "@/components/layout/PreviewRibbon";
import { SiteFooter } from "@/components/layout/SiteFooter";
import { ThemeProvider } from "@/components/layout/ThemeProvider";
import { THEME_INIT_SCRIPT } from "@/lib/csp/theme-script";
import "./globals.css";

/** Every page runs on Node.js (also Next's default; route handlers have it too, the middleware declares it). */
export const runtime = "nodejs";

export const metadata: Metadata = {
  title: { default: "Two of Us", template: "%s · Two of Us" },
  description: "The social network for couples without children.",
};

export const viewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#fdf8f6" },
    { media: "(prefers-color-scheme: dark)", color: "#17131a" },
  ],
};

/**
 * Reads nothing from the request, so pages that read nothing either are prerendered (the preview
 * ribbon reads the environment, so a preview is one from its build on). The theme's
 * first-paint script has a fixed text that every Content-Security-Policy allows by its hash.
 */
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: THEME_INIT_SCRIPT }} />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <PreviewRibbon />
        <ThemeProvider>
          {children}
          <SiteFooter />
        </ThemeProvider>
      </body>
    </html>
  );
}
