import { redirect } from "next/navigation";

/** middleware.ts sends / onwards; this covers a request that reaches the page anyway. */
export default function RootPage() {
  redirect("/login");
}
