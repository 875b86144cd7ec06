import { titleOnlyPage } from "@/components/layout/PageTitle";

const page = titleOnlyPage("Dashboard");
export const metadata = page.metadata;
export default page.Page;
