import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { Fragment } from "react";
import { runDueWork } from "@/lib/scheduled/service";
import { isPreview } from "@/lib/env";
import { mayReadOutbox } from "@/lib/http/preview-access";
import { listOutbox } from "@/lib/mail/outbox";
import { withDb } from "@/lib/with-db";
import styles from "./page.module.css";

export const metadata: Metadata = { title: "Dev outbox", robots: { index: false } };

/** Plain text with its URLs made clickable. */
function Linkified({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/\S+)/g);
  return (
    <>
      {parts.map((part, index) =>
        /^https?:\/\//.test(part) ? (
          <a key={index} href={part}>
            {part}
          </a>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}

export default async function DevOutboxPage({ searchParams }: { searchParams: Promise<{ to?: string }> }) {
  // Its reset and invitation links take over accounts: only a caller on this machine, or a preview's reviewer, reads them.
  // The request is read first, so the page is rendered per request and the setting read at run time.
  if (!mayReadOutbox(await headers())) notFound();
  const { to } = await searchParams;
  // Crons do not run on previews: opening the outbox runs the due work, so its e-mails show here.
  const messages = await withDb(async (db) => {
    await runDueWork(db);
    return listOutbox(db, typeof to === "string" ? to : undefined);
  });
  return (
    <main id="main" className="page">
      <h1>Dev outbox</h1>
      <p className="muted">
        E-mails the app would have sent, newest first.{" "}
        {isPreview() ? "On a preview every e-mail stays here: none is sent." : "Shown only while no e-mail provider is configured."}
      </p>
      {messages.length === 0 && <p>No e-mails yet.</p>}
      <ol className={styles.outbox}>
        {messages.map((message, index) => (
          <li key={`${message.createdAt}-${index}`} className="card">
            <h2>{message.subject}</h2>
            <p className="muted">
              To {message.to} ·{" "}
              <time dateTime={message.createdAt}>{new Date(message.createdAt).toLocaleString("en-GB", { timeZone: "UTC" })} UTC</time>
            </p>
            <pre className={styles.text}>
              <Linkified text={message.text} />
            </pre>
          </li>
        ))}
      </ol>
    </main>
  );
}
