import { titleOnlyPage } from "@/components/layout/PageTitle";

const page = titleOnlyPage("Settings");
export const metadata = page.metadata;
export default page.Page;
