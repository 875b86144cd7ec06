import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { env } from "@/lib/env";

export const metadata: Metadata = { title: "Bare page", robots: { index: false } };

/**
 * The phone-score baseline of `npm run bench` (BENCH_SECTIONS=lighthouse): a heading and a line
 * under the root layout, nothing else, so its figures are what any page of this build pays.
 * Open only with BENCH_BARE=1 (read per request, so a build without it answers 404 too).
 */
export default async function BarePage() {
  await connection();
  if (!env().BENCH_BARE) notFound();
  return (
    <main id="main" className="page">
      <h1>Bare page</h1>
      <p>The baseline of the benchmark: the root layout and this text.</p>
    </main>
  );
}
