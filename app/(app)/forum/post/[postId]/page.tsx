import { titleOnlyPage } from "@/components/layout/PageTitle";

const page = titleOnlyPage("Forum Post");
export const metadata = page.metadata;
export default page.Page;
