import type { Metadata } from "next";
import { SuggestionList } from "@/components/discover/SuggestionList";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { discoverSuggestions, shownSuggestion } from "@/lib/discover/queries";
import { withDb } from "@/lib/with-db";

export const metadata: Metadata = { title: "Discover" };

/** Couples like you, best first, each saying why; 'Not for us' hides one for 30 days. */
export default async function DiscoverPage() {
  const { userId } = await requireCompleteProfile();
  const suggestions = await withDb((db) => discoverSuggestions(db, userId));
  return (
    <main id="main" className="page">
      <h1>Discover</h1>
      <p className="page-lead">
        Couples who share your interests, your adventure styles or your part of the world. Not feeling it? &lsquo;Not for us&rsquo; hides a
        couple for 30 days.
      </p>
      <SuggestionList suggestions={suggestions.map(shownSuggestion)} />
    </main>
  );
}
