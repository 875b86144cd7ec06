import type { Metadata } from "next";
import { LoginForm } from "@/components/auth/LoginForm";
import { AuthCard } from "@/components/ui/AuthCard";
import { auth } from "@/lib/auth/auth";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ from?: string }> }) {
  const [{ from }, session] = await Promise.all([searchParams, auth()]);
  return (
    <AuthCard title="Welcome back" subtitle="Sign in to meet couples who live life like you do.">
      <LoginForm from={typeof from === "string" ? from : ""} signedIn={Boolean(session)} />
    </AuthCard>
  );
}
