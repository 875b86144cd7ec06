"use client";

import Link from "next/link";
import { createContext, useContext, type ReactNode } from "react";
import { noticeDate, SAFETY_PAGE, type StandingSanction } from "@/lib/safety/rules";

/** The couple's restriction in force (set by the app's layout), so each writing button can say why it is missing. */
const RestrictionContext = createContext<StandingSanction | null>(null);

export function RestrictionProvider({ restriction, children }: { restriction: StandingSanction | null; children: ReactNode }) {
  return <RestrictionContext.Provider value={restriction}>{children}</RestrictionContext.Provider>;
}

export const useRestriction = () => useContext(RestrictionContext);

/** Where a button to write would have been: 'Restricted until ...', linking to how moderation works. */
export function RestrictedInstead({ restriction, className }: { restriction: StandingSanction; className?: string }) {
  return (
    <span className={className} role="note" data-testid="restricted-instead">
      Restricted {restriction.endsAt ? `until ${noticeDate(restriction.endsAt)}` : "until a moderator decides"} ·{" "}
      <Link href={SAFETY_PAGE} className="inline-target">
        why
      </Link>
    </span>
  );
}
