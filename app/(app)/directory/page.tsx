import { titleOnlyPage } from "@/components/layout/PageTitle";

const page = titleOnlyPage("Directory");
export const metadata = page.metadata;
export default page.Page;
