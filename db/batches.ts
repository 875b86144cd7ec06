/**
 * A list in slices of at most `size`, in order: a statement binds at most 65,535 values
 * (Postgres's protocol), so a list that may be long is written or named a slice a statement,
 * and work that may be long (storage calls) runs a slice at a time.
 */
export function* batches<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}
