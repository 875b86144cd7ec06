"use client";

import { useRouter } from "next/navigation";
import { startTransition } from "react";
import { InvitationLinkIssue } from "@/components/invitations/InvitationProblem";

/** Anything unexpected on the join page: the spec's 'Invitation Link Issue' screen, whose Try Again renders the page again. */
export default function InvitationAcceptError({ reset }: { error: Error; reset: () => void }) {
  const router = useRouter();
  return (
    <InvitationLinkIssue
      onTryAgain={() =>
        startTransition(() => {
          router.refresh();
          reset();
        })
      }
    />
  );
}
