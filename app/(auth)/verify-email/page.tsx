import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { VerifyEmail } from "@/components/auth/VerifyEmail";
import { AuthCard } from "@/components/ui/AuthCard";
import { auth } from "@/lib/auth/auth";
import { verifyPageQuerySchema } from "@/lib/auth/schemas";

export const metadata: Metadata = { title: "Verify your email", referrer: "no-referrer" };

type Params = { token?: string; email?: string; registered?: string; name?: string };

export default async function VerifyEmailPage({ searchParams }: { searchParams: Promise<Params> }) {
  const [params, session] = await Promise.all([searchParams, auth()]);
  const shown = verifyPageQuerySchema.parse(params);
  const email = shown.email ?? session?.user?.email ?? "";
  // Nobody to verify: neither a signed-in user nor an address handed over by registration or the link.
  if (!session && !email) redirect("/login");
  const notice = params.registered ? "Please check your email to verify your account." : null;
  const greeting = shown.name ? `Thanks, ${shown.name}!` : undefined;
  return (
    <AuthCard title="Verify your email" subtitle={greeting}>
      <VerifyEmail token={typeof params.token === "string" ? params.token : null} email={email} notice={notice} />
    </AuthCard>
  );
}
