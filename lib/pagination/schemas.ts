import { z } from "zod";
import { boundedString } from "@/lib/fields";
import { CURSOR_MAX } from "./page";

/** The query of a keyset list's later page (`?cursor=`, none for the first): every such list reads it. */
export const cursorPageSchema = z.object({ cursor: boundedString(CURSOR_MAX, "Invalid cursor").optional() });
