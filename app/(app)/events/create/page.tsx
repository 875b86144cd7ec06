import { titleOnlyPage } from "@/components/layout/PageTitle";

const page = titleOnlyPage("Create an Event");
export const metadata = page.metadata;
export default page.Page;
