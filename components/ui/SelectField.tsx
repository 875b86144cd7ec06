import type { ReactNode, SelectHTMLAttributes } from "react";
import { FieldFrame } from "./FieldFrame";

export type SelectOption = { value: string | number; label: string; disabled?: boolean };

type SelectFieldProps = SelectHTMLAttributes<HTMLSelectElement> & {
  label: string;
  error?: string;
  hint?: ReactNode;
  options: readonly SelectOption[];
};

/** A labelled choice from a list, its error and hint read out with it (FieldFrame around a select). */
export function SelectField({ label, error, hint, id, options, ...select }: SelectFieldProps) {
  return (
    <FieldFrame label={label} error={error} hint={hint} id={id}>
      {(control) => (
        <select {...control} {...select}>
          {options.map((option) => (
            <option key={option.value} value={option.value} disabled={option.disabled}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}
