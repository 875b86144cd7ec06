import { env, isPreview } from "@/lib/env";
import styles from "./PreviewRibbon.module.css";

/**
 * On a preview deployment, a thin strip above every page naming it and its commit, so a
 * reviewer never mistakes it for the real product. In the page's flow (never fixed), so it
 * covers no control at any width. Read when the page renders: at build time for prerendered
 * pages, which is why preview mode is set for the build too (Vercel sets VERCEL_ENV for both).
 */
export function PreviewRibbon() {
  const e = env();
  if (!isPreview(e)) return null;
  const commit = e.VERCEL_GIT_COMMIT_SHA?.slice(0, 7);
  return (
    <aside className={styles.ribbon} aria-label="Preview deployment">
      <span className={styles.label}>Preview</span>
      {commit && (
        <>
          {" "}
          <span className={styles.commit}>
            <span className={styles.hidden}>of commit </span>
            <code>{commit}</code>
          </span>
        </>
      )}
    </aside>
  );
}
