import Link from "next/link";
import { LINK_REL, linkLabel, renderBody, type Mention } from "@/lib/plain-text";
import styles from "./Body.module.css";

/** A post's or reply's plain text as paragraphs, with clickable links and validated mentions; never HTML. */
export function Body({ text, mentions = [] }: { text: string; mentions?: readonly Mention[] }) {
  return (
    <div className={styles.body}>
      {renderBody(text, mentions).map((paragraph, p) => (
        <p key={p}>
          {paragraph.map((line, l) => (
            <span key={l}>
              {l > 0 && <br />}
              {line.map((segment, s) => {
                if (segment.kind === "text") return <span key={s}>{segment.text}</span>;
                if (segment.kind === "link")
                  return (
                    <a key={s} href={segment.href} rel={LINK_REL} target="_blank">
                      {linkLabel(segment.text)}
                    </a>
                  );
                return (
                  <Link key={s} href={`/profile/${encodeURIComponent(segment.coupleId)}`} className={styles.mention}>
                    {segment.label}
                  </Link>
                );
              })}
            </span>
          ))}
        </p>
      ))}
    </div>
  );
}
