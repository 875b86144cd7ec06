import { titleOnlyPage } from "@/components/layout/PageTitle";

const page = titleOnlyPage("Notifications");
export const metadata = page.metadata;
export default page.Page;
