import type { Metadata } from "next";
import { AuthCard } from "@/components/ui/AuthCard";

export const metadata: Metadata = { title: "Sign out?" };

/**
 * Where a sign-out link followed from another site lands (middleware.ts): another site cannot
 * sign a member out. The button is a navigation of this site's own, so /signout then signs out at once.
 */
export default function ConfirmSignOutPage() {
  return (
    <AuthCard title="Sign out?">
      <form action="/signout" method="get">
        <button type="submit" className="button button-primary button-block">
          Sign out
        </button>
      </form>
    </AuthCard>
  );
}
