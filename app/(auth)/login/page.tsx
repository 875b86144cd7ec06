import type { Metadata } from "next";
import { LoginForm } from "@/components/auth/LoginForm";
import { AuthCard } from "@/components/ui/AuthCard";
import { auth } from "@/lib/auth/auth";
import { loginNotice } from "@/lib/auth/login-notices";

export const metadata: Metadata = { title: "Sign in" };

type Params = { from?: string; message?: string; email?: string };
const text = (value: unknown, max: number) => (typeof value === "string" ? value.slice(0, max) : "");

export default async function LoginPage({ searchParams }: { searchParams: Promise<Params> }) {
  const [params, session] = await Promise.all([searchParams, auth()]);
  return (
    <AuthCard title="Welcome back" subtitle="Sign in to meet couples who live life like you do.">
      <LoginForm
        from={text(params.from, 500)}
        signedIn={Boolean(session)}
        notice={loginNotice(params.message)}
        prefillEmail={text(params.email, 254)}
      />
    </AuthCard>
  );
}
