"use client";

import { useState } from "react";
import { useZodForm } from "@/components/forms/useZodForm";
import { Alert } from "@/components/ui/Alert";
import { Field } from "@/components/ui/Field";
import { SelectField } from "@/components/ui/SelectField";
import { grantRoleAction, revokeRoleAction } from "@/app/(app)/moderation/team/actions";
import { TEAM_ROLES } from "@/lib/membership/roles";
import styles from "./Moderation.module.css";
import { reach } from "@/lib/transport/actions";

const ROLE_OPTIONS = TEAM_ROLES.map((role) => ({ value: role, label: role === "admin" ? "Admin" : "Moderator" }));

const loadSchema = () => import("@/lib/safety/moderation-schemas").then((schemas) => schemas.grantRoleSchema);

type TeamMember = { userId: string; name: string; role: string };

/** Admins only: the moderators and admins (revoke any but oneself) and a grant by e-mail; each change is logged. */
export function TeamRoles({ team, viewerId }: { team: TeamMember[]; viewerId: string }) {
  const [result, setResult] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useZodForm(loadSchema, { email: "", role: "moderator" }, "on-submit");
  const grant = handleSubmit(async (values) => {
    setResult(null);
    const done = await reach(() => grantRoleAction(values));
    if (done.ok) {
      setResult({ tone: "success", text: `${values.email} is now a${values.role === "admin" ? "n" : ""} ${values.role}.` });
      reset();
    } else setResult({ tone: "error", text: done.message });
  });
  async function revoke(member: TeamMember) {
    setBusy(member.userId);
    setResult(null);
    const done = await reach(() => revokeRoleAction(member.userId));
    setResult(done.ok ? { tone: "success", text: `${member.name} is a member again.` } : { tone: "error", text: done.message });
    setBusy(null);
  }
  return (
    <>
      {result && <Alert tone={result.tone}>{result.text}</Alert>}
      <ul className={styles.list} aria-label="The team">
        {team.map((member) => (
          <li key={member.userId} className="card">
            <p>
              <strong>{member.name}</strong> · {member.role}
            </p>
            {member.userId === viewerId ? (
              <p className={styles.muted}>You (another admin changes your role).</p>
            ) : (
              <button type="button" className="button button-secondary" disabled={busy === member.userId} onClick={() => revoke(member)}>
                Revoke {member.role}
              </button>
            )}
          </li>
        ))}
      </ul>
      <form onSubmit={grant} noValidate aria-label="Grant a role">
        <Field label="E-mail of the account" type="email" autoComplete="off" error={errors.email?.message} {...register("email")} />
        <SelectField label="Role" options={ROLE_OPTIONS} {...register("role")} />
        <button type="submit" className="button button-primary" disabled={isSubmitting}>
          {isSubmitting ? "Granting..." : "Grant"}
        </button>
      </form>
    </>
  );
}
