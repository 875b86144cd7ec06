"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type MouseEvent } from "react";
import { sendInvitationAction } from "@/app/(onboarding)/invite-partner/actions";
import { useZodForm } from "@/components/forms/useZodForm";
import { Alert } from "@/components/ui/Alert";
import { Field } from "@/components/ui/Field";
import { CheckIcon } from "@/components/ui/icons";
import { leaveWithFreshSession } from "@/components/auth/leaveWithFreshSession";
import { markRegistrationComplete } from "@/lib/registration/client-storage";
import { INVITATION_VALID_DAYS, MESSAGES } from "@/lib/invitations/rules";
import type { InvitePartnerForm } from "@/lib/invitations/schemas";
import type { SentInvitation } from "@/lib/invitations/send";
import { InviteSent } from "./InviteSent";
import { InviteLead } from "./InviteCard";
import styles from "./InviteForm.module.css";
import { reach } from "@/lib/transport/actions";

const EMPTY: InvitePartnerForm = { partner_first_name: "", partner_last_name: "", partner_email: "" };
const NOTES = ["Your partner gets an email invitation", "A secure link that only works once", `${INVITATION_VALID_DAYS} days to join you`];

/** /invite-partner: the form, then the 'They're In the Loop!' view; 'Send Another Invitation' comes back empty. */
export function InviteForm({ ownEmail }: { ownEmail: string }) {
  const router = useRouter();
  const [sent, setSent] = useState<SentInvitation["invitation"] | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const focusFirstField = useRef(false);
  const {
    register,
    handleSubmit,
    reset,
    setServerErrors,
    setFocus,
    formState: { errors, isSubmitting },
  } = useZodForm(() => import("@/lib/invitations/schemas").then((schemas) => schemas.inviteFormSchema(ownEmail)), EMPTY);

  // Back from the success view: the keyboard starts again at the first field.
  useEffect(() => {
    if (focusFirstField.current && !sent) {
      focusFirstField.current = false;
      setFocus("partner_first_name");
    }
  }, [sent, setFocus]);

  const onValid = async (values: InvitePartnerForm) => {
    setFormError(null);
    const result = await reach(() => sendInvitationAction(values), MESSAGES.sendFailed);
    if (result.ok) {
      setSent(result.invitation);
      return;
    }
    setServerErrors(result.fieldErrors ?? {});
    setFormError(result.message);
  };

  /** Registration is complete either way: flags for the flow, fresh session claims, then the dashboard. */
  const goToDashboard = async (event?: MouseEvent) => {
    event?.preventDefault();
    markRegistrationComplete();
    await leaveWithFreshSession(router, "/dashboard", { replace: true });
  };

  if (sent) {
    return (
      <InviteSent
        invitation={sent}
        onSendAnother={() => {
          reset(EMPTY);
          setFormError(null);
          focusFirstField.current = true;
          setSent(null);
        }}
        onDashboard={() => void goToDashboard()}
      />
    );
  }

  return (
    <>
      <h1>Invite your partner</h1>
      <InviteLead>Your couple profile is ready. Bring your partner in so you can explore together.</InviteLead>
      <ul className={styles.notes}>
        {NOTES.map((note) => (
          <li key={note}>
            <CheckIcon size={18} />
            {note}
          </li>
        ))}
      </ul>
      <form noValidate onSubmit={handleSubmit(onValid)}>
        {formError && <Alert tone="error">{formError}</Alert>}
        <div className="field-row">
          <Field
            label="Partner's first name"
            autoComplete="off"
            error={errors.partner_first_name?.message}
            {...register("partner_first_name")}
          />
          <Field
            label="Partner's last name"
            autoComplete="off"
            error={errors.partner_last_name?.message}
            {...register("partner_last_name")}
          />
        </div>
        <Field
          label="Partner's email"
          type="email"
          autoComplete="off"
          error={errors.partner_email?.message}
          {...register("partner_email")}
        />
        <button type="submit" className="button button-primary button-block" disabled={isSubmitting}>
          {isSubmitting ? "Sending..." : "Send Invitation"}
        </button>
      </form>
      <a href="/dashboard" className={styles.skip} onClick={(event) => void goToDashboard(event)}>
        I&apos;ll loop them in later
      </a>
    </>
  );
}
