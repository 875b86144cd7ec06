import { redirect } from "next/navigation";

export default function ProfileSetupPage() {
  redirect("/onboarding");
}
