import type { Metadata } from "next";
import { LoginForm } from "@/components/auth/LoginForm";
import { AuthCard } from "@/components/ui/AuthCard";

export const metadata: Metadata = { title: "Sign in" };

/** Prerendered: what depends on the visit (its query, a session) the form reads in the browser. */
export default function LoginPage() {
  return (
    <AuthCard title="Welcome back" subtitle="Sign in to meet couples who live life like you do.">
      <LoginForm />
    </AuthCard>
  );
}
