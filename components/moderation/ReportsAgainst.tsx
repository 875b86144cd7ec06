import type { CoupleRecord } from "@/lib/safety/couple-record";
import { countText } from "@/lib/safety/rules";

/**
 * The reports against a couple on its moderator page, by reason: counted as the queue's rows, exact
 * below the cap and '100+' past it (lib/safety/rules.ts `countText`). Never on the reader's own couple.
 */
export function ReportsAgainst({ reports }: { reports: CoupleRecord["reports"] }) {
  if (reports === null) return <p>Another moderator reads them: a couple is never told who reported or blocked it.</p>;
  if (reports.length === 0) return <p>None.</p>;
  return (
    <ul>
      {reports.map((row) => (
        <li key={row.reason}>
          {row.reason}: {countText(row.reports, row.capped)} report{row.reports === 1 && !row.capped ? "" : "s"} by{" "}
          {countText(row.couples, row.capped)} couple{row.couples === 1 && !row.capped ? "" : "s"}
        </li>
      ))}
    </ul>
  );
}
