import { titleOnlyPage } from "@/components/layout/PageTitle";

const page = titleOnlyPage("Couple Profile");
export const metadata = page.metadata;
export default page.Page;
