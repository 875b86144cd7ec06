import type { ReactNode } from "react";
import { SettingsNav } from "@/components/settings/SettingsNav";
import "@/app/styles/settings.css";

/** Every settings page: the section navigation beside the section. */
export default function SettingsLayout({ children }: { children: ReactNode }) {
  return (
    <div className="page settings-shell">
      <SettingsNav />
      <div className="settings-content">{children}</div>
    </div>
  );
}
