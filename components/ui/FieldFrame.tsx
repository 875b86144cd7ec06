import { useId, type ReactNode } from "react";

/** What the frame hands its control: its id, and the error and hint it is announced with. */
export type ControlProps = { id: string; "aria-invalid"?: true; "aria-describedby"?: string };

type FieldFrameProps = {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  id?: string;
  children: (control: ControlProps) => ReactNode;
};

/**
 * The one shape of a form field: a label, its control (an input, a select or a textarea, which
 * `children` renders with the props it is given) and the error and hint read out with it
 * (aria-describedby). `Field` is this frame around an input.
 */
export function FieldFrame({ label, error, hint, id, children }: FieldFrameProps) {
  const generated = useId();
  const controlId = id ?? generated;
  const describedBy = [error ? `${controlId}-error` : null, hint ? `${controlId}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={controlId}>{label}</label>
      {children({ id: controlId, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy })}
      {hint && (
        <div id={`${controlId}-hint`} className="field-hint">
          {hint}
        </div>
      )}
      {error && (
        <p id={`${controlId}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
