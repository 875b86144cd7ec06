import type { ReactNode } from "react";
import { SettingsNav } from "@/components/settings/SettingsNav";
import styles from "./layout.module.css";

/** Every settings page: the section navigation beside the section (the overview, which lists them, has none). */
export default function SettingsLayout({ children }: { children: ReactNode }) {
  return (
    <div className={`page ${styles.shell}`}>
      <SettingsNav />
      <div className={styles.content}>{children}</div>
    </div>
  );
}
