import Link from "next/link";
import styles from "./WhatThisIs.module.css";

/** The front door's one line (on /login and /register): what Two of Us is, for whom, and where to read more. */
export function WhatThisIs() {
  return (
    <span className={styles.line}>
      Two of Us is for couples without children who want to meet other couples. <Link href="/about">What couples do here</Link>
    </span>
  );
}
