import { titleOnlyPage } from "@/components/layout/PageTitle";

const page = titleOnlyPage("Welcome to your couple");
export const metadata = page.metadata;
export default page.Page;
