import { Alert } from "./Alert";

/** Under a keyset list (components/ui/useLoadMore.ts): the last page's error, and the button while there is more. */
export function LoadMore({
  list,
  label = "Load more",
  className,
}: {
  list: { cursor: string | null; busy: boolean; error: string | null; loadMore(): Promise<void> };
  label?: string;
  /** The list's own spacing around the button. */
  className?: string;
}) {
  return (
    <>
      {list.error && <Alert tone="error">{list.error}</Alert>}
      {list.cursor && (
        <p className={className}>
          <button type="button" className="button button-secondary" onClick={list.loadMore} disabled={list.busy}>
            {list.busy ? "Loading..." : label}
          </button>
        </p>
      )}
    </>
  );
}
