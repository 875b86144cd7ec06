import type { Metadata } from "next";
import styles from "@/components/messages/MessagesShell.module.css";

export const metadata: Metadata = { title: "Messages" };

/** Nothing open yet: on a laptop the space beside the inbox says what goes there (a phone shows the inbox alone). */
export default function MessagesPage() {
  return <p className={styles.placeholder}>Choose a conversation to read it here.</p>;
}
