/**
 * `npm run admin:grant -- EMAIL`: gives the account the admin role (everything a moderator does,
 * and granting roles). `-- --revoke EMAIL` takes it back.
 */
import { runGrant } from "./grant-role";

runGrant("admin:grant", "admin");
