import type { Metadata } from "next";
import { RegisterForm } from "@/components/auth/RegisterForm";
import { WhatThisIs } from "@/components/auth/WhatThisIs";
import { AuthCard } from "@/components/ui/AuthCard";

export const metadata: Metadata = { title: "Create your account", referrer: "no-referrer" };

/**
 * Prerendered. An invited partner's /register?invite=... joins the couple with the partner form
 * instead: middleware.ts serves it from /invitation/accept, which reads the invitation per request.
 */
export default function RegisterPage() {
  return (
    <AuthCard
      title="Create your account"
      subtitle={
        <>
          <WhatThisIs />
          Partner 1 starts here. You will invite your partner once your couple profile is ready.
        </>
      }
    >
      <RegisterForm />
    </AuthCard>
  );
}
