import type { Metadata } from "next";
import type { ReactNode } from "react";

/** A page whose content is still to come: its title, and a word on what is coming. */
export function PageTitle({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <main id="main" className="page">
      <h1>{title}</h1>
      {children ?? <p className="muted">This part of the product is on its way.</p>}
    </main>
  );
}

/** The page module of a route that shows only its title for now. */
export function titleOnlyPage(title: string): { metadata: Metadata; Page: () => ReactNode } {
  return { metadata: { title }, Page: () => <PageTitle title={title} /> };
}
