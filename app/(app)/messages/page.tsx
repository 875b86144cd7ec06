import { titleOnlyPage } from "@/components/layout/PageTitle";

const page = titleOnlyPage("Messages");
export const metadata = page.metadata;
export default page.Page;
