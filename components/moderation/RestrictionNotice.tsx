import Link from "next/link";
import { Alert } from "@/components/ui/Alert";
import { restrictedText, type StandingSanction } from "@/lib/safety/rules";

/**
 * Under the navigation bar while the couple is restricted: why and until when, where writing would be.
 * A server component: nothing in it is interactive, so it is neither sent as props nor hydrated.
 */
export function RestrictionNotice({ restriction }: { restriction: StandingSanction }) {
  return (
    <div className="page" data-testid="restriction-notice">
      <Alert tone="info">
        {restrictedText(restriction)} <Link href="/safety/appeal">Your standing and how to appeal</Link>
      </Alert>
    </div>
  );
}
