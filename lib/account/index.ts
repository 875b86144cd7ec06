export { exportAccount, type AccountExport } from "./export";
export { deleteAccount, type DeletionOutcome } from "./deletion";
export { deleteAccountSchema, DELETE_CONFIRMATION_WORD } from "./schemas";
export { accountOverview } from "./queries";
