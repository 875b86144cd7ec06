import type { ReactNode } from "react";

/** A notice; errors are announced assertively, the rest politely. `id`: for the field it is about to name it (aria-describedby). */
export function Alert({ tone, id, children }: { tone: "error" | "success" | "info"; id?: string; children: ReactNode }) {
  return (
    <div id={id} className={`alert alert-${tone}`} role={tone === "error" ? "alert" : "status"}>
      {children}
    </div>
  );
}
