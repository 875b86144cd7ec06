"use client";

import { useState } from "react";
import { arrivals, type Arrival } from "@/lib/live/arrivals";

/**
 * A live list's arrivals, read out (`lib/live/arrivals.ts`): a hidden status holding what others
 * added since the list's newest item last changed. `items` is null while the list loads: its first
 * page is not an arrival.
 */
export function ArrivalsStatus<Item extends { id: string }>({
  items,
  heardAs,
  className,
}: {
  items: readonly Item[] | null;
  heardAs: (item: Item) => string | null;
  /** Beside its own, for the page's layout to find it by. */
  className?: string;
}) {
  const key = items ? (items.at(-1)?.id ?? "") : null;
  const [heard, setHeard] = useState<{ key: string | null; arrived: Arrival[] }>({ key, arrived: [] });
  if (heard.key !== key)
    setHeard({ key, arrived: heard.key === null || key === null || !items ? [] : arrivals(items, heard.key, heardAs) });
  return (
    <div className={className ? `visually-hidden ${className}` : "visually-hidden"} role="status" data-testid="arrivals">
      {heard.arrived.map((arrival) => (
        <p key={arrival.id}>{arrival.text}</p>
      ))}
    </div>
  );
}
