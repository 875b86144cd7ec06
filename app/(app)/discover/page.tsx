import { titleOnlyPage } from "@/components/layout/PageTitle";

const page = titleOnlyPage("Discover");
export const metadata = page.metadata;
export default page.Page;
