export { listNotifications, markRead, unreadCount } from "./service";
export * from "./schemas";
