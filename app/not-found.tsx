import Link from "next/link";
import { AuthCard } from "@/components/ui/AuthCard";

export default function NotFound() {
  return (
    <AuthCard title="Page not found" brand={false}>
      <p>
        <Link href="/">Go to the start page</Link>
      </p>
    </AuthCard>
  );
}
