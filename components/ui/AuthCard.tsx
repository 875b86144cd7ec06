import type { AriaRole, ReactNode } from "react";
import styles from "./AuthCard.module.css";

/** The column of the public screens (sign-in, registration, invitations, errors). */
export function AuthPage({ children }: { children: ReactNode }) {
  return (
    <main id="main" className={styles.page}>
      {children}
    </main>
  );
}

type AuthCardProps = {
  title: string;
  subtitle?: ReactNode;
  /** The product's name above the title; error screens leave it out. */
  brand?: boolean;
  role?: AriaRole;
  /** The screen's own module class, for what it adds inside the card. */
  className?: string;
  children: ReactNode;
};

/** A public screen: one card with the title, an optional subtitle, then its content. */
export function AuthCard({ title, subtitle, brand = true, role, className, children }: AuthCardProps) {
  return (
    <AuthPage>
      <section className={className ? `${styles.card} ${className}` : styles.card} aria-labelledby="auth-title" role={role}>
        {brand && (
          <p className={styles.brand} aria-hidden="true">
            Two of Us
          </p>
        )}
        <h1 id="auth-title">{title}</h1>
        {subtitle && <p className={styles.subtitle}>{subtitle}</p>}
        {children}
      </section>
    </AuthPage>
  );
}

/** Where the public screens' "Need help?" writes to. */
export const SUPPORT_EMAIL = "support@twoofus.app";

/** The line under a card's form: the way to the other screen, or to help. */
export function AuthFooter({ children }: { children: ReactNode }) {
  return <p className={styles.footer}>{children}</p>;
}
