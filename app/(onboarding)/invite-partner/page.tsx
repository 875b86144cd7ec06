import { titleOnlyPage } from "@/components/layout/PageTitle";

const page = titleOnlyPage("Invite your partner");
export const metadata = page.metadata;
export default page.Page;
