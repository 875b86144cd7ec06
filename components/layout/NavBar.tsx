"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState } from "react";
import { Dialog } from "@/components/ui/Dialog";
import { navLinks } from "@/lib/routes";
import { NotificationBell } from "./NotificationBell";
import { ThemeToggle } from "./ThemeToggle";

const LINKS = navLinks("main");
const SECONDARY = navLinks("secondary");

export function NavBar() {
  const pathname = usePathname();
  const [irlOpen, setIrlOpen] = useState(false);
  const current = (href: string) => (pathname === href ? "page" : undefined);
  return (
    <header className="navbar">
      <nav aria-label="Main" className="navbar-inner">
        <Link href="/dashboard" className="logo" aria-label="Two of Us, dashboard">
          Two of Us
        </Link>
        <ul className="nav-links">
          {LINKS.map((link) => (
            <li key={link.href}>
              <Link href={link.href} aria-current={current(link.href)}>
                {link.label}
              </Link>
            </li>
          ))}
          <li>
            <button type="button" className="nav-button" onClick={() => setIrlOpen(true)}>
              IRL
            </button>
          </li>
          {SECONDARY.map((link) => (
            <li key={link.href}>
              <Link href={link.href} aria-current={current(link.href)}>
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
        <div className="nav-actions">
          <NotificationBell />
          <ThemeToggle />
          <Link href="/signout" className="nav-signout">
            Sign out
          </Link>
        </div>
      </nav>
      <Dialog open={irlOpen} onClose={() => setIrlOpen(false)} title="IRL Events Coming Soon!">
        <p>Meet other couples in real life. We are putting the finishing touches on events near you.</p>
        <button type="button" className="button button-primary" autoFocus onClick={() => setIrlOpen(false)}>
          Got it!
        </button>
      </Dialog>
    </header>
  );
}
