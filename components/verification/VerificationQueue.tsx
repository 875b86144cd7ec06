"use client";

import Link from "next/link";
import { useId, useState } from "react";
import { Alert } from "@/components/ui/Alert";
import { SelectField } from "@/components/ui/SelectField";
import { LoadMore } from "@/components/ui/LoadMore";
import { RelativeTime } from "@/components/ui/RelativeTime";
import { useLoadMore } from "@/components/ui/useLoadMore";
import { nextCursorOf, type KeysetPage } from "@/lib/pagination/page";
import { decideVerification, pendingVerificationsPage } from "@/lib/verification/client/api";
import type { PendingVerification } from "@/lib/verification/queries";
import { REFUSAL_REASONS } from "@/lib/verification/rules";
import styles from "./Verification.module.css";

const REASON_OPTIONS = [
  { value: "", label: "Choose a reason" },
  ...REFUSAL_REASONS.map((option) => ({ value: option.key, label: option.label })),
];

/** One photo to compare, with what it is. */
function Compared({ src, caption }: { src: string; caption: string }) {
  return (
    <figure>
      {/* eslint-disable-next-line @next/next/no-img-element -- a private selfie (served to moderators only) or a stored photo, shown as it is */}
      <img src={src} alt={caption} loading="lazy" />
      <figcaption>{caption}</figcaption>
    </figure>
  );
}

/** A pending selfie beside the couple's photos and the partner's own, the pose asked for, approve or refuse with a reason. */
function Pending({ item, onDecided }: { item: PendingVerification; onDecided(id: string, text: string): void }) {
  const reasonId = useId();
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function decide(decision: "approve" | "refuse") {
    if (decision === "refuse" && !reason) return setError("Choose why the selfie is refused.");
    setBusy(true);
    setError(null);
    try {
      await decideVerification(item.id, decision, decision === "refuse" ? reason : undefined);
      onDecided(item.id, `${item.firstName} of ${item.couple.coupleName}: ${decision === "approve" ? "approved" : "refused"}.`);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "Could not save the decision. Please try again.");
      setBusy(false);
    }
  }

  return (
    <li className="card" aria-labelledby={`${reasonId}-title`}>
      <h2 id={`${reasonId}-title`}>
        {item.firstName} of{" "}
        <Link href={`/moderation/couples/${encodeURIComponent(item.couple.id)}`} className="inline-target">
          {item.couple.coupleName}
        </Link>
      </h2>
      <p>
        Pose asked: <strong>{item.pose.label}</strong> · sent <RelativeTime at={item.submittedAt} />
      </p>
      <div className={styles.compare}>
        <Compared src={item.selfieUrl} caption={`Selfie of ${item.firstName}`} />
        {item.avatarUrl && <Compared src={item.avatarUrl} caption={`${item.firstName}'s own photo`} />}
        {item.couple.profileImageUrl && <Compared src={item.couple.profileImageUrl} caption="The couple's main photo" />}
        {item.couple.photos.map((url, index) => (
          <Compared key={url} src={url} caption={`The couple's photo ${index + 1}`} />
        ))}
      </div>
      {!item.avatarUrl && !item.couple.profileImageUrl && item.couple.photos.length === 0 && (
        <p>Neither {item.firstName} nor the couple has a photo to compare the selfie with.</p>
      )}
      {error && <Alert tone="error">{error}</Alert>}
      <div className={styles.refuse}>
        <button type="button" className="button button-primary" disabled={busy} onClick={() => decide("approve")}>
          Approve
        </button>
        <SelectField label="Reason to refuse" value={reason} onChange={(event) => setReason(event.target.value)} options={REASON_OPTIONS} />
        <button type="button" className="button button-danger" disabled={busy} onClick={() => decide("refuse")}>
          Refuse
        </button>
      </div>
    </li>
  );
}

/** The moderators' queue of selfies, oldest first, with the shared 'Load more'; a decided one leaves the list. */
export function VerificationQueue({ page }: { page: KeysetPage<PendingVerification> }) {
  const [decided, setDecided] = useState<Set<string>>(new Set());
  const [said, setSaid] = useState<string | null>(null);
  const { attachList, ...list } = useLoadMore({
    firstCursor: nextCursorOf(page),
    firstIds: page.data.map((item) => item.id),
    load: pendingVerificationsPage,
    idOf: (item) => item.id,
    failed: "Could not load more selfies. Please try again.",
  });
  const shown = [...page.data, ...list.more].filter((item) => !decided.has(item.id));
  return (
    <>
      {said && <Alert tone="success">{said}</Alert>}
      {shown.length === 0 ? (
        <p>No selfies waiting.</p>
      ) : (
        <ul className={styles.list} ref={attachList}>
          {shown.map((item) => (
            <Pending
              key={item.id}
              item={item}
              onDecided={(id, text) => {
                setDecided((before) => new Set(before).add(id));
                setSaid(text);
              }}
            />
          ))}
        </ul>
      )}
      <LoadMore list={list} />
    </>
  );
}
