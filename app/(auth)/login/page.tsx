import type { Metadata } from "next";
import { LoginForm } from "@/components/auth/LoginForm";
import { WhatThisIs } from "@/components/auth/WhatThisIs";
import { AuthCard } from "@/components/ui/AuthCard";

export const metadata: Metadata = { title: "Sign in" };

/** Prerendered: what depends on the visit (its query, a session) the form reads in the browser. */
export default function LoginPage() {
  return (
    <AuthCard title="Welcome back" subtitle={<WhatThisIs />}>
      <LoginForm />
    </AuthCard>
  );
}
