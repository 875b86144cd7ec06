"use client";

import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { menuPlacement, visibleRoom } from "@/components/ui/menu-placement";
import type { ReportTargetType } from "@/lib/forum/rules";
import type { ForumAuthor } from "@/lib/forum/client/api";
import { BlockDialog, ReportDialog } from "./SafetyDialogs";
import styles from "./ItemMenu.module.css";

/** Between the menu's button and its items (ItemMenu.module.css: the items sit 2 px off the 44 px button). */
const MENU_GAP = 2;

type Props = {
  label: string;
  targetType: ReportTargetType;
  targetId: string;
  /** Who wrote it: a post, a reply or a message. */
  author: Pick<ForumAuthor, "userId" | "coupleId" | "coupleName">;
  viewer: { userId: string; coupleId: string };
  /** What anyone may do with it, first in the menu (a message's Reply and React). */
  actions?: readonly { label: string; onSelect(): void }[];
  onEdit?: () => void;
  onDelete?: () => void;
  onBlocked(coupleId: string): void;
};

/**
 * The "More" menu of a post, reply or message (a disclosure of buttons): its `actions` for anyone (a message's Reply
 * and React), Edit and Delete for its author, Report and
 * 'Block {couple name}' for everyone else (a deleted member's words can be reported; there is no couple left to
 * block); each opens its dialog.
 */
export function ItemMenu({ label, targetType, targetId, author, viewer, actions = [], onEdit, onDelete, onBlocked }: Props) {
  const [dialog, setDialog] = useState<"report" | "block" | null>(null);
  // A thread shows one menu per item: its buttons and listeners exist only while it is open, so a
  // long thread hydrates the closed button alone.
  const [open, setOpen] = useState(false);
  const details = useRef<HTMLDetailsElement>(null);
  const items = useRef<HTMLDivElement>(null);
  const ownCouple = author.coupleId === viewer.coupleId;
  const blockable = author.coupleId === null || author.coupleName === null ? null : { id: author.coupleId, name: author.coupleName };
  const close = () => {
    if (details.current) details.current.open = false;
  };
  // A dialog closed without a change gives focus back to the menu's button (the button that opened it is hidden in
  // the closed menu), once the dialog has left: nothing outside an open modal dialog takes focus.
  const returnFocus = useRef(false);
  const closeDialog = () => {
    returnFocus.current = true;
    setDialog(null);
  };
  useEffect(() => {
    if (dialog !== null || !returnFocus.current) return;
    returnFocus.current = false;
    details.current?.querySelector("summary")?.focus();
  }, [dialog]);
  // While open, a click elsewhere or Escape closes the menu (and Escape returns focus to its button).
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (details.current?.open && !details.current.contains(event.target as Node)) close();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || !details.current?.open) return;
      close();
      details.current.querySelector("summary")?.focus();
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);
  // Opened, the menu turns to where it is seen whole (a scrolling thread clips what sticks out of
  // it), before it is painted.
  useLayoutEffect(() => {
    const summary = details.current?.querySelector("summary");
    if (!open || !summary || !items.current) return;
    const { offsetWidth: width, offsetHeight: height } = items.current;
    const placement = menuPlacement(summary.getBoundingClientRect(), { width, height }, visibleRoom(details.current!), MENU_GAP);
    Object.assign(items.current.dataset, placement);
  }, [open]);
  return (
    <>
      <details ref={details} className={styles.menu} onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary aria-label={label}>
          <span aria-hidden="true">⋯</span>
        </summary>
        {open && (
          <div ref={items} className={styles.items}>
            {actions.map((action) => (
              <button
                key={action.label}
                type="button"
                onClick={() => {
                  close();
                  action.onSelect();
                }}
              >
                {action.label}
              </button>
            ))}
            {author.userId === viewer.userId && onEdit && (
              <button
                type="button"
                onClick={() => {
                  close();
                  onEdit();
                }}
              >
                Edit
              </button>
            )}
            {author.userId === viewer.userId && onDelete && (
              <button
                type="button"
                className={styles.danger}
                onClick={() => {
                  close();
                  onDelete();
                }}
              >
                Delete
              </button>
            )}
            {!ownCouple && (
              <>
                <button
                  type="button"
                  onClick={() => {
                    close();
                    setDialog("report");
                  }}
                >
                  Report
                </button>
                {blockable && (
                  <button
                    type="button"
                    className={styles.danger}
                    onClick={() => {
                      close();
                      setDialog("block");
                    }}
                  >
                    Block {blockable.name}
                  </button>
                )}
              </>
            )}
          </div>
        )}
      </details>
      {dialog === "report" && <ReportDialog open onClose={closeDialog} targetType={targetType} targetId={targetId} />}
      {dialog === "block" && blockable && (
        <BlockDialog
          open
          onClose={closeDialog}
          coupleId={blockable.id}
          coupleName={blockable.name}
          onBlocked={() => {
            setDialog(null);
            onBlocked(blockable.id);
          }}
        />
      )}
    </>
  );
}
