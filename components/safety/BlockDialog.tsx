"use client";

import { useState } from "react";
import { Dialog } from "@/components/ui/Dialog";
import { Alert } from "@/components/ui/Alert";
import { FormActions } from "@/components/ui/FormActions";
import { setBlock } from "@/lib/forum/client/api";

type Props = { open: boolean; onClose(): void; coupleId: string; coupleName: string; onBlocked(): void };

/** 'Block {couple name}' asks first, saying all a block does: it hides both couples from each other and ends their conversation. */
export function BlockDialog({ open, onClose, coupleId, coupleName, onBlocked }: Props) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await setBlock(coupleId, true);
      onBlocked();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "Could not block this couple");
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onClose={onClose} title={`Block ${coupleName}?`}>
      {error && <Alert tone="error">{error}</Alert>}
      <p>
        You will no longer see each other&apos;s profiles, posts, replies, reactions or mentions, and neither couple can reply to, mention
        or say hello to the other.
      </p>
      <p>
        If you are talking, your conversation ends: both couples can still read it, nobody can write in it. They are not told you blocked
        them; they see &lsquo;This conversation has ended.&rsquo;
      </p>
      <p>You can unblock them any time in Settings › Blocked couples.</p>
      <FormActions
        tone="danger"
        label={`Block ${coupleName}`}
        busyLabel="Blocking..."
        busy={busy}
        onAction={confirm}
        onCancel={onClose}
        focusCancel
      />
    </Dialog>
  );
}
