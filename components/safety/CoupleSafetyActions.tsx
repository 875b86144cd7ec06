"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { BlockDialog, ReportDialog } from "./SafetyDialogs";

/** On another couple's profile: 'Report' and 'Block {couple name}', each through its dialog. */
export function CoupleSafetyActions({ coupleId, coupleName }: { coupleId: string; coupleName: string }) {
  const router = useRouter();
  const [dialog, setDialog] = useState<"report" | "block" | null>(null);
  return (
    <div className="form-actions">
      <button type="button" className="button button-secondary" onClick={() => setDialog("report")}>
        Report
      </button>
      <button type="button" className="button button-danger-outline" onClick={() => setDialog("block")}>
        Block {coupleName}
      </button>
      {dialog === "report" && <ReportDialog open onClose={() => setDialog(null)} targetType="couple" targetId={coupleId} />}
      {dialog === "block" && (
        <BlockDialog
          open
          onClose={() => setDialog(null)}
          coupleId={coupleId}
          coupleName={coupleName}
          // A blocked couple's profile is not found from now on: back to the forum.
          onBlocked={() => router.push("/forum")}
        />
      )}
    </div>
  );
}
