"use client";

import type { ComponentProps } from "react";
import { Field } from "@/components/ui/Field";
import { useBrowserValue } from "@/components/ui/useBrowserValue";
import { latestAdultBirthDate } from "@/lib/auth/rules";

type Props = Omit<ComponentProps<typeof Field>, "type" | "min" | "max" | "autoComplete">;

/**
 * The birth-date picker of the sign-up forms: members are adults, so the latest date is today minus
 * 18 years, today as the browser has it. /register is prerendered: a day written into its HTML
 * would be the build's (someone who turned 18 since the last deploy could not pick their
 * birthday), so the server writes none and the browser sets it as it takes the page over.
 */
export function DateOfBirthField(props: Props) {
  const max = useBrowserValue(latestAdultBirthDate, undefined);
  return <Field type="date" min="1900-01-01" max={max} autoComplete="bday" hint="Members are adults, 18 or older." {...props} />;
}
