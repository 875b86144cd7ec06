"use client";

import dynamic from "next/dynamic";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { RestrictedInstead, useRestriction } from "@/components/moderation/RestrictionContext";
import { Opening } from "@/components/ui/Opening";
import type { ConnectionState } from "@/lib/connections/rules";
import { INBOX_TEXTS } from "@/lib/messages/display";
import styles from "./SayHello.module.css";

type Props = { coupleId: string; coupleName: string; connection: ConnectionState; className?: string };

/** The note's dialog and its form load on the first 'Say hello', not with every card of a page. */
const HelloDialog = dynamic(() => import("./HelloDialog").then((m) => m.HelloDialog), { ssr: false, loading: () => <Opening quiet /> });

/**
 * Consent first: 'Say hello' asks with a short note ('Send request'); afterwards 'Request sent',
 * and 'Message' (to the conversation) once the other couple has accepted; a couple who asked
 * first leads to the inbox's requests; under 90 days after a hello that is no longer open, neither
 * couple is offered one (`connectionStateOf`). The page is read again
 * after a request, so every card of the same couple on it says so too.
 */
export function SayHello({ coupleId, coupleName, connection, className }: Props) {
  const router = useRouter();
  const [sent, setSent] = useState(false);
  const [open, setOpen] = useState(false);
  // The dialog is rendered from its first opening on: a page of cards sends, paints and hydrates
  // none of them until one is used (it then stays, so closing is the browser's, focus back included).
  const [opened, setOpened] = useState(false);
  const restriction = useRestriction();
  // Sent, the button that opened the dialog is gone: focus goes to what replaced it, not to the page's start.
  const sentNote = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (sent) sentNote.current?.focus();
  }, [sent]);
  const classes = [styles.action, className].filter(Boolean).join(" ");

  if (connection.state === "connected")
    return (
      <Link href={`/messages/${encodeURIComponent(connection.conversationId)}`} className={`button button-primary ${classes}`}>
        {INBOX_TEXTS.message}
        <span className="visually-hidden"> {coupleName}</span>
      </Link>
    );
  if (connection.state === "incoming")
    return (
      <Link href="/messages" className={`button button-secondary ${classes}`}>
        {INBOX_TEXTS.incoming}
        <span className="visually-hidden">: answer {coupleName} in your requests</span>
      </Link>
    );
  if (connection.state === "requested" || sent)
    return (
      <span ref={sentNote} tabIndex={sent ? -1 : undefined} className={`${styles.sent} ${classes}`} role="status">
        {INBOX_TEXTS.requestSent}
      </span>
    );
  // The pair's last hello is under 90 days old: the send would be refused, so no button offers it.
  if (connection.state === "later") return <span className={`${styles.sent} ${classes}`}>{INBOX_TEXTS.helloLater}</span>;
  if (restriction) return <RestrictedInstead restriction={restriction} className={`${styles.sent} ${classes}`} />;

  return (
    <>
      <button
        type="button"
        className={`button button-primary ${classes}`}
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
      >
        {INBOX_TEXTS.sayHello}
        <span className="visually-hidden"> to {coupleName}</span>
      </button>
      {opened && (
        <HelloDialog
          coupleId={coupleId}
          coupleName={coupleName}
          open={open}
          onClose={() => setOpen(false)}
          onDone={(requested) => {
            setSent(requested);
            setOpen(false);
            router.refresh();
          }}
        />
      )}
    </>
  );
}
