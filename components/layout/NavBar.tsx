"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useCallback, useRef, useState } from "react";
import { Dialog } from "@/components/ui/Dialog";
import { MenuIcon } from "@/components/ui/icons";
import { navLinks, navSection, type NavLink } from "@/lib/routes";
import { MessagesBadge } from "./MessagesBadge";
import { NotificationBell } from "./NotificationBell";
import { UnreadTitle } from "./UnreadTitle";
import { ThemeToggle } from "./ThemeToggle";
import { useDismiss } from "./useDismiss";
import { EVENTS_COMING_SOON_TEXT, EVENTS_COMING_SOON_TITLE } from "@/lib/events/coming-soon";

const LINKS = navLinks("main");
const SECONDARY = navLinks("secondary");
const MODERATOR_LINKS = navLinks("moderators");
/**
 * Phones: the links with a tab label go in the bottom tab bar, the others in the menu. Tablets and
 * small laptops (768-1,239 px): the bar keeps the main areas and the tabs' links, the menu the rest.
 */
const inMenu = (link: NavLink) => !link.tab;
const TABS = [...LINKS, ...SECONDARY].filter((link) => !inMenu(link));
const MENU_LINKS = [...LINKS, ...SECONDARY].filter(inMenu);
/** The link that carries the unread messages badge. */
const MESSAGES_HREF = "/messages";

/** The menu's first entry takes focus as it opens, so the keyboard continues inside it. */
const focusFirstEntry = (panel: HTMLElement | null) => panel?.querySelector<HTMLElement>("a, button")?.focus();

/**
 * The signed-in navigation. From 1,240 px: one bar with every link. 768-1,239 px: the bar with
 * the links that have a tab, the rest in the menu. Phones (CSS decides, so the server renders
 * each): a one-row top bar (logo, bell, menu), a bottom tab bar for the main areas, and the rest
 * in the menu, a disclosure that takes focus when opened. Moderators (and admins) find their
 * queue last in the bar and in the menu.
 */
export function NavBar({ moderator }: { moderator: boolean }) {
  const pathname = usePathname();
  const [irlOpen, setIrlOpen] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const menu = useRef<HTMLDivElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  const closeMenu = useCallback(() => setMenuOpen(false), []);
  useDismiss(menuOpen, closeMenu, menu, menuButton);
  const section = navSection(pathname);
  const menuLinks = moderator ? [...MENU_LINKS, ...MODERATOR_LINKS] : MENU_LINKS;
  /** This page's own link is the page; the link of the area it is in (a conversation's Messages) is marked too. */
  const current = (href: string) => (pathname === href ? "page" : section === href ? "true" : undefined);
  /**
   * A bar's entry: the link, marked when it is this page or its area, with the unread badge on Messages.
   * None of the navigation's links is prefetched: each page is rendered per request (nothing to fetch
   * ahead), and a prefetch per link on the screen is two requests and a parse on a phone's main thread
   * as every signed-in page loads (the directory's rule, CoupleCard).
   */
  const barLink = (href: string, text: string | undefined, className?: string) => (
    <li key={href} className={className}>
      <Link href={href} aria-current={current(href)} prefetch={false}>
        {text}
        {href === MESSAGES_HREF && <MessagesBadge />}
      </Link>
    </li>
  );

  /** Where the IRL dialog was opened from: closed, focus goes back there (the menu's entry is gone with the menu). */
  const irlFromMenu = useRef(false);
  const openIrl = (fromMenu: boolean) => {
    irlFromMenu.current = fromMenu;
    setMenuOpen(false);
    setIrlOpen(true);
  };
  return (
    <header className="navbar">
      <nav aria-label="Main" className="navbar-inner">
        <Link href="/dashboard" className="logo" aria-label="Two of Us, dashboard" prefetch={false}>
          Two of Us
        </Link>
        <ul className="nav-links nav-wide">
          {LINKS.map((link) => barLink(link.href, link.label, inMenu(link) ? "nav-full" : undefined))}
          <li>
            <button type="button" className="nav-button" onClick={() => openIrl(false)}>
              IRL
            </button>
          </li>
          {SECONDARY.map((link) => barLink(link.href, link.label, inMenu(link) ? "nav-full" : undefined))}
          {moderator && MODERATOR_LINKS.map((link) => barLink(link.href, link.label, inMenu(link) ? "nav-full" : undefined))}
        </ul>
        <div className="nav-actions">
          <UnreadTitle />
          <NotificationBell />
          <span className="nav-full">
            <ThemeToggle />
          </span>
          <Link href="/signout" className="nav-signout nav-full" prefetch={false}>
            Sign out
          </Link>
          <div className="nav-menu nav-compact" ref={menu}>
            <button
              ref={menuButton}
              type="button"
              className="icon-button"
              aria-label="Menu"
              aria-expanded={menuOpen}
              aria-controls="nav-menu-panel"
              onClick={() => setMenuOpen((value) => !value)}
            >
              <MenuIcon />
            </button>
            {menuOpen && (
              <ul id="nav-menu-panel" className="nav-menu-panel" ref={focusFirstEntry}>
                <li className="nav-narrow">
                  <button type="button" className="nav-menu-item" onClick={() => openIrl(true)}>
                    IRL
                  </button>
                </li>
                {menuLinks.map((link) => (
                  <li key={link.href}>
                    <Link href={link.href} className="nav-menu-item" aria-current={current(link.href)} onClick={closeMenu} prefetch={false}>
                      {link.label}
                    </Link>
                  </li>
                ))}
                <li>
                  <ThemeToggle className="nav-menu-item" withLabel />
                </li>
                <li>
                  <Link href="/signout" className="nav-menu-item">
                    Sign out
                  </Link>
                </li>
              </ul>
            )}
          </div>
        </div>
      </nav>
      <nav aria-label="Sections" className="tabbar nav-narrow">
        <ul>{TABS.map((link) => barLink(link.href, link.tab))}</ul>
      </nav>
      {/* Rendered while open only: closed, no one can see or reach it without 'IRL', yet every
          signed-in page rendered and hydrated it. 'Got it!' closes it as Escape does (the form's
          method), so onClose runs while it is still in the page and gives focus back. */}
      {irlOpen && (
        <Dialog
          open
          onClose={() => {
            setIrlOpen(false);
            if (irlFromMenu.current) menuButton.current?.focus();
          }}
          title={EVENTS_COMING_SOON_TITLE}
        >
          <p>{EVENTS_COMING_SOON_TEXT}</p>
          <form method="dialog">
            <button type="submit" className="button button-primary" data-autofocus>
              Got it!
            </button>
          </form>
        </Dialog>
      )}
    </header>
  );
}
