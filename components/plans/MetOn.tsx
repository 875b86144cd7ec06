import styles from "./Plans.module.css";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** 'You met on 14 Dec' (a plan's date at its place, '2026-12-14'), shown only to the two couples. */
export function MetOn({ date }: { date: string }) {
  return (
    <p className={styles.met}>
      You met on {Number(date.slice(8, 10))} {MONTHS[Number(date.slice(5, 7)) - 1]}
    </p>
  );
}
