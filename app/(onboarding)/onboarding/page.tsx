import { titleOnlyPage } from "@/components/layout/PageTitle";

const page = titleOnlyPage("Tell us about yourself");
export const metadata = page.metadata;
export default page.Page;
