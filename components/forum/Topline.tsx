import { topicLabel, type ForumTopic } from "@/lib/forum/rules";
import styles from "./Topline.module.css";

/** Above a post's title: its topic, and where it was posted (the place, the distance band) when known. */
export function Topline({ topic, place, distanceBand }: { topic: string; place?: string | null; distanceBand?: string | null }) {
  return (
    <p className={styles.topline}>
      <span className="chip">{topicLabel(topic as ForumTopic)}</span>
      {place && <span className="chip">{place}</span>}
      {distanceBand && <span className="chip">{distanceBand}</span>}
    </p>
  );
}
