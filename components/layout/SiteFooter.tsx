import Link from "next/link";
import { navLinks } from "@/lib/routes";
import styles from "./SiteFooter.module.css";

const LINKS = navLinks("footer");

/** Every page's footer: what Two of Us is, the terms, the privacy notice and the community guidelines. */
export function SiteFooter() {
  return (
    <footer className={styles.footer}>
      <nav aria-label="About Two of Us">
        <ul className={styles.links}>
          {LINKS.map((link) => (
            <li key={link.href}>
              <Link href={link.href} prefetch={false}>
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </footer>
  );
}
