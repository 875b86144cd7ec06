export { listNotifications, markRead, unreadCount } from "./notifications";
export * from "./schemas";
