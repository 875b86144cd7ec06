import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { VerifyEmail } from "@/components/auth/VerifyEmail";
import { AuthCard } from "@/components/ui/AuthCard";
import { auth } from "@/lib/auth/auth";

export const metadata: Metadata = { title: "Verify your email", referrer: "no-referrer" };

type Params = { token?: string; email?: string; registered?: string; name?: string };

export default async function VerifyEmailPage({ searchParams }: { searchParams: Promise<Params> }) {
  const [params, session] = await Promise.all([searchParams, auth()]);
  const email = typeof params.email === "string" ? params.email : (session?.user?.email ?? "");
  // Nobody to verify: neither a signed-in user nor an address handed over by registration or the link.
  if (!session && !email) redirect("/login");
  const notice = params.registered ? "Please check your email to verify your account." : null;
  const greeting = typeof params.name === "string" && params.name ? `Thanks, ${params.name.slice(0, 50)}!` : undefined;
  return (
    <AuthCard title="Verify your email" subtitle={greeting}>
      <VerifyEmail token={typeof params.token === "string" ? params.token : null} email={email} notice={notice} />
    </AuthCard>
  );
}
