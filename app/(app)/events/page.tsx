import { titleOnlyPage } from "@/components/layout/PageTitle";

const page = titleOnlyPage("Events");
export const metadata = page.metadata;
export default page.Page;
