import { titleOnlyPage } from "@/components/layout/PageTitle";

const page = titleOnlyPage("Your Couple Profile");
export const metadata = page.metadata;
export default page.Page;
