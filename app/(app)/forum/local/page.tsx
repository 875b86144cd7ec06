import { titleOnlyPage } from "@/components/layout/PageTitle";

const page = titleOnlyPage("Local Forum");
export const metadata = page.metadata;
export default page.Page;
