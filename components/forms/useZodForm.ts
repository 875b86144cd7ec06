"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useForm, type DefaultValues, type FieldValues } from "react-hook-form";
import type { z } from "zod";

/**
 * The forms' one react-hook-form set-up: the domain's zod schema (the one the server parses
 * with) as resolver, each field checked as it is typed and when it is left (mode "all").
 */
export function useZodForm<Input extends FieldValues, Output extends FieldValues>(schema: z.ZodType<Output, Input>, defaultValues: DefaultValues<Input>) {
  return useForm<Input, unknown, Output>({ resolver: zodResolver(schema), mode: "all", defaultValues });
}
