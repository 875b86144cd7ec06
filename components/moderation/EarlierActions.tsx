import { CoupleActions } from "@/components/moderation/CoupleActions";
import { RelativeTime } from "@/components/ui/RelativeTime";
import type { CoupleRecord } from "@/lib/safety/couple-record";
import { guidelineLabel } from "@/lib/safety/rules";
import styles from "./Moderation.module.css";

/**
 * A couple's earlier actions on its moderator page, each standing one with its lift only where
 * the reader may act (`decidable`: no `leftToAnother`), as a lift elsewhere is refused.
 */
export function EarlierActions({ actions, decidable }: { actions: CoupleRecord["actions"]; decidable: boolean }) {
  if (actions.length === 0) return <p>None.</p>;
  return (
    <ul className={styles.list}>
      {actions.map((action) => (
        <li key={action.id} className="card">
          <p>
            <strong>{action.kind}</strong> · {guidelineLabel(action.reason)} · <RelativeTime at={action.createdAt} />
            {action.bySpamRules && " · by the spam rules"}
          </p>
          {action.note && <p className={styles.note}>Note: {action.note}</p>}
          {action.liftedAt ? (
            <p className={styles.muted}>Lifted{action.liftReason && `: ${action.liftReason}`}</p>
          ) : (
            decidable && <CoupleActions sanctionId={action.id} kind={action.kind} />
          )}
        </li>
      ))}
    </ul>
  );
}
