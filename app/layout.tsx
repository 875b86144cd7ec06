import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { ThemeProvider } from "@/components/layout/ThemeProvider";
import "./globals.css";
import "./styles/onboarding.css";
import "./styles/invitations.css";
import "./styles/notifications.css";
import "./styles/profile.css";
import "./styles/forum.css";
import "./styles/discover.css";

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

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The CSP nonce middleware.ts made for this response; next-themes' inline script needs it.
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    <html lang="en" suppressHydrationWarning>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <ThemeProvider nonce={nonce}>{children}</ThemeProvider>
      </body>
    </html>
  );
}
