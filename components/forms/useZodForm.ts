"use client";

import { useState } from "react";
import { useForm, type DefaultValues, type FieldValues, type Resolver } from "react-hook-form";
import type { z } from "zod";

/** Where a form's schema lives: `() => import("@/lib/<domain>/schemas").then((m) => m.someSchema)`. */
export type SchemaLoader<Input extends FieldValues, Output extends FieldValues> = () => Promise<z.ZodType<Output, Input>>;

/**
 * A resolver that loads zod, the schema and the zod resolver the first time the form validates
 * (a field typed or left, or a submit), so the page's first paint ships none of them; each later
 * validation reuses them. Same schema, same messages as the server's.
 */
export function lazyZodResolver<Input extends FieldValues, Output extends FieldValues>(
  load: SchemaLoader<Input, Output>,
): Resolver<Input, unknown, Output> {
  let loaded: Promise<Resolver<Input, unknown, Output>> | undefined;
  return async (values, context, options) => {
    loaded ??= Promise.all([import("@hookform/resolvers/zod"), load()]).then(([{ zodResolver }, schema]) => zodResolver(schema));
    const resolve = await loaded.catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return resolve(values, context, options);
  };
}

/**
 * The forms' one react-hook-form set-up: the domain's zod schema (the one the server parses
 * with), loaded on first use, as resolver; each field checked as it is typed and when it is left
 * (mode "all").
 */
export function useZodForm<Input extends FieldValues, Output extends FieldValues>(
  load: SchemaLoader<Input, Output>,
  defaultValues: DefaultValues<Input>,
) {
  const [resolver] = useState(() => lazyZodResolver(load));
  return useForm<Input, unknown, Output>({ resolver, mode: "all", defaultValues });
}
