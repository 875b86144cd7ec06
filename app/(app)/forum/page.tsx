import { titleOnlyPage } from "@/components/layout/PageTitle";

const page = titleOnlyPage("Global Forum");
export const metadata = page.metadata;
export default page.Page;
