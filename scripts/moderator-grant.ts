/**
 * `npm run moderator:grant -- EMAIL`: gives the account the moderator role (the /moderation queue,
 * the actions on couples, the log). `-- --revoke EMAIL` takes it back.
 */
import { runGrant } from "./grant-role";

runGrant("moderator:grant", "moderator");
