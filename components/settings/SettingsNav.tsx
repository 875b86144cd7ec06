"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { currentSection, SETTINGS_SECTIONS } from "@/lib/settings/sections";
import styles from "./SettingsNav.module.css";

/**
 * The sections of /settings. Wide screens: the list beside the open section. Phones (CSS
 * decides): a section page shows only a link back to the overview. The overview lists the
 * sections itself, so it has no navigation beside it.
 */
export function SettingsNav() {
  const pathname = usePathname();
  const section = currentSection(pathname);
  if (!section) return null;
  return (
    <nav aria-label="Settings" className={styles.nav}>
      <ul className={styles.list}>
        {SETTINGS_SECTIONS.map((item) => (
          <li key={item.href}>
            <Link href={item.href} aria-current={item.href === section?.href ? "page" : undefined}>
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
      <p className={styles.back}>
        <Link href="/settings">
          {/* A no-break space: the link is a flex box, which drops a plain one at its item's end. */}
          <span aria-hidden="true">{"←\u00a0"}</span>All settings
        </Link>
      </p>
    </nav>
  );
}
