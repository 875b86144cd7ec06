import type { ComponentProps } from "react";
import { Field } from "@/components/ui/Field";
import { latestAdultBirthDate } from "@/lib/auth/rules";

type Props = Omit<ComponentProps<typeof Field>, "type" | "min" | "max" | "autoComplete">;

/** The birth-date picker of the sign-up forms: members are adults, so the latest date is today minus 18 years. */
export function DateOfBirthField(props: Props) {
  return (
    <Field
      type="date"
      min="1900-01-01"
      max={latestAdultBirthDate()}
      autoComplete="bday"
      hint="Members are adults, 18 or older."
      {...props}
    />
  );
}
