import type { Metadata } from "next";
import { AppearanceSettings } from "@/components/settings/AppearanceSettings";

export const metadata: Metadata = { title: "Appearance" };

export default function AppearanceSettingsPage() {
  return (
    <main id="main">
      <h1>Appearance</h1>
      <AppearanceSettings />
    </main>
  );
}
